// A2A push notification configs, through the webhook machinery (this folder): each config is a webhook
// endpoint bound to one task and owned by the agent that set it. `queuePushes`, run by the webhooks sweeper just
// before it delivers, looks at the configs whose task (or its flight) changed since it last looked, and queues the
// task's A2A status as a StreamResponse when it differs from the last one pushed. Delivery, retries, signing and
// outside-only addresses are the webhooks' own. (Not a trigger on the journal: every claim, heartbeat and output
// would pay for it on the hot paths; a task's updated_at moves with each change A2A can show.)
import type { TaskPushNotificationConfig } from "@a2a-js/sdk";
import { and, eq, gt, isNotNull, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import { flights, principals, tasks, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import { toPrincipal, type Principal } from "../principal";
import { readTaskView } from "../tasks/view";
import { A2A_PUSH_TYPE } from "./deliver";
import { retireEndpoint, webhookUrl } from "./manage";
import { newDeliveryId, newWebhookSecret } from "./signature";
import { hostOf } from "./view";

/** At most this many live push configs per task and agent: a receiver or two, not a fan-out. */
export const MAX_PUSH_CONFIGS = 5;

/** What CreateTaskPushNotificationConfig may set (the task comes from the request). */
export const pushConfigInput = z.strictObject({
  id: z.string().trim().max(200).optional(),
  url: webhookUrl,
  /** Sent back as X-A2A-Notification-Token, and the key of the signature (Standard Webhooks) when given. */
  token: z.string().max(512).optional(),
  authentication: z
    .strictObject({
      scheme: z.string().regex(/^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,39}$/, "an HTTP authentication scheme (Bearer, Basic…)"),
      credentials: z
        .string()
        .max(4096)
        .regex(/^[^\r\n]*$/, "one line"),
    })
    .optional(),
});
export type PushConfigInput = z.infer<typeof pushConfigInput>;

type EndpointRow = typeof webhookEndpoints.$inferSelect;

function configOf(row: EndpointRow): TaskPushNotificationConfig {
  const [scheme, ...rest] = row.authorization?.split(" ") ?? [];
  return {
    tenant: "",
    id: row.configId ?? row.id,
    taskId: row.taskId ?? "",
    url: row.url,
    token: row.notificationToken ?? "",
    authentication: row.authorization ? { scheme, credentials: rest.join(" ") } : undefined,
  };
}

/** The caller's live configs of a task (a human sees every agent's). */
function mine(caller: Principal, taskId: string) {
  return and(eq(webhookEndpoints.taskId, taskId), isNull(webhookEndpoints.deletedAt), caller.kind === "human" ? undefined : eq(webhookEndpoints.createdBy, caller.id));
}

/** Sets a config on a task the caller may see; the receiver is told the task's status at once, then at each change. */
export async function createPushConfig(db: Db, caller: Principal, taskId: string, input: PushConfigInput, clock: Clock): Promise<TaskPushNotificationConfig> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const task = await readTaskView(tx, taskId);
    // One writer of a task's configs at a time, so the limit and the ids hold.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`quorum:a2a-push:${task.id}`}, 0))`);
    const live = await tx.select().from(webhookEndpoints).where(mine(caller, task.id));
    const id = input.id || crypto.randomUUID();
    if (live.some((row) => row.configId === id && row.createdBy === caller.id)) {
      throw fail.conflict("push", "duplicate", `task #${task.number} already has your push config '${id}': delete it first, or choose another id`);
    }
    if (live.filter((row) => row.createdBy === caller.id).length >= MAX_PUSH_CONFIGS) {
      throw fail.conflict("push", "too_many_push_configs", `you hold ${MAX_PUSH_CONFIGS} push configs on task #${task.number}, the most one agent may: delete one first`);
    }
    const secret = input.token ? `whsec_${Buffer.from(input.token).toString("base64")}` : newWebhookSecret();
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        url: input.url,
        events: [A2A_PUSH_TYPE],
        description: `A2A push for task #${task.number}`,
        secret,
        createdBy: caller.id,
        createdAt: now,
        taskId: task.id,
        configId: id,
        notificationToken: input.token || null,
        authorization: input.authentication ? `${input.authentication.scheme} ${input.authentication.credentials}` : null,
      })
      .returning();
    await appendEvent(tx, { kind: "WebhookAdded", actor: caller.id, taskId: task.id, t: now, data: { endpointId: row.id, host: hostOf(row.url), events: row.events } });
    // Never looked at yet: the next pass pushes the status as it is then.
    return configOf(row);
  });
}

async function findConfig(db: Executor, caller: Principal, taskId: string, id: string): Promise<EndpointRow> {
  await readTaskView(db, taskId);
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(mine(caller, taskId), eq(webhookEndpoints.configId, id)));
  if (!row) throw fail.notFound("push", `no push config '${id.slice(0, 64)}' of yours on this task`);
  return row;
}

export async function getPushConfig(db: Db, caller: Principal, taskId: string, id: string): Promise<TaskPushNotificationConfig> {
  return configOf(await findConfig(db, caller, taskId, id));
}

export async function listPushConfigs(db: Db, caller: Principal, taskId: string): Promise<TaskPushNotificationConfig[]> {
  await readTaskView(db, taskId);
  const rows = await db.select().from(webhookEndpoints).where(mine(caller, taskId)).orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
  return rows.map(configOf);
}

/** Removes a config: nothing more is sent, what waited is given up (the webhooks' own removal). */
export async function deletePushConfig(db: Db, caller: Principal, taskId: string, id: string, clock: Clock): Promise<void> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const row = await findConfig(tx, caller, taskId, id);
    const [locked] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, row.id)).for("update");
    await retireEndpoint(tx, caller, locked, now);
  });
}

/**
 * A task's status as its config's agent may see it, in A2A's words: the push's body, and a digest that tells one
 * pushed status from the next (stored on the endpoint). The A2A surface renders it (surfaces/a2a/push-render.ts).
 */
export type PushRenderer = (tx: Executor, viewer: Principal, taskId: string) => Promise<{ body: string; fingerprint: string }>;

/**
 * Queues a push for each live config whose task changed since it was last looked at, when the task's status (as the
 * config's agent may see it) differs from the last one pushed. Configs are taken with SKIP LOCKED, so instances never
 * queue one change twice. Returns how many pushes were queued.
 */
export async function queuePushes(db: Db, clock: Clock, render: PushRenderer, limit = 50): Promise<number> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const changed = await tx
      .select({ endpoint: webhookEndpoints, owner: principals, through: sql<string>`greatest(${tasks.updatedAt}, coalesce(${flights.updatedAt}, ${tasks.updatedAt}))` })
      .from(webhookEndpoints)
      .innerJoin(tasks, eq(tasks.id, webhookEndpoints.taskId))
      .innerJoin(principals, eq(principals.id, webhookEndpoints.createdBy))
      .leftJoin(flights, eq(flights.goalTaskId, tasks.id))
      .where(
        and(
          isNotNull(webhookEndpoints.taskId),
          isNull(webhookEndpoints.deletedAt),
          isNull(webhookEndpoints.disabledAt),
          or(
            isNull(webhookEndpoints.checkedThrough),
            gt(tasks.updatedAt, webhookEndpoints.checkedThrough),
            and(isNotNull(flights.updatedAt), gt(flights.updatedAt, webhookEndpoints.checkedThrough)),
          ),
        ),
      )
      .limit(limit)
      .for("update", { of: webhookEndpoints, skipLocked: true });
    let queued = 0;
    for (const { endpoint, owner, through } of changed) {
      const { body, fingerprint: print } = await render(tx, toPrincipal(owner), endpoint.taskId!);
      const checked = { checkedThrough: new Date(through) };
      if (print === endpoint.pushedState) {
        await tx.update(webhookEndpoints).set(checked).where(eq(webhookEndpoints.id, endpoint.id));
        continue;
      }
      await tx.insert(webhookDeliveries).values({ id: newDeliveryId(), endpointId: endpoint.id, type: A2A_PUSH_TYPE, body, nextAttemptAt: now, createdAt: now });
      await tx
        .update(webhookEndpoints)
        .set({ ...checked, pushedState: print })
        .where(eq(webhookEndpoints.id, endpoint.id));
      queued += 1;
    }
    return queued;
  });
}
