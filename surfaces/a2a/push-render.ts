// What an A2A push config's receiver is sent: the task's status update as a StreamResponse, rendered as the
// config's agent may see the task. The webhooks sweeper queues it (domain/webhooks/a2a-push.ts).
import { createHash } from "node:crypto";
import { StreamResponse } from "@a2a-js/sdk";
import type { PushRenderer } from "../../domain/webhooks/a2a-push";
import { readA2ATask } from "./task";

export const renderPush: PushRenderer = async (tx, viewer, taskId) => {
  const { id, contextId, status, metadata } = await readA2ATask(tx, viewer, taskId, { includeArtifacts: false });
  const fingerprint = createHash("sha256")
    .update(JSON.stringify([status?.state, status?.message?.parts]))
    .digest("hex");
  const body = JSON.stringify(StreamResponse.toJSON({ payload: { $case: "statusUpdate", value: { taskId: id, contextId, status, metadata } } }));
  return { body, fingerprint };
};
