// A fork as the HTTP API streams it: what can be refused is refused before the stream starts (with its status),
// then JSON Lines — `{"progress": …}` as each step lands, then `{"report": …}`, or `{"error": …}` should the
// continuation fail. The hub's journal is never written; the reader leaving stops the continuation.
import type { Db } from "../db/client";
import { quorumVariables, testCommandSetting } from "../domain/config";
import type { Principal } from "../domain/principal";
import { type ForkRunInput, requireForker } from "../domain/runs/fork-input";
import { loadReplayableRun } from "../domain/runs/run-journal";
import { checkForkable, forkClient, forkRun } from "./fork";
import { forkWorkspace } from "./fork-workspace";
import { hubRedaction } from "./run";
import { DEMO_TEST_COMMAND } from "./team/worker";

export async function forkAsLines(db: Db, caller: Principal, runId: string, input: ForkRunInput): Promise<ReadableStream<Uint8Array>> {
  requireForker(caller);
  const events = await loadReplayableRun(db, runId, caller);
  checkForkable(events, input.until);
  const { client, continuedWith } = await forkClient(db, events, input, quorumVariables());
  const workspace = await forkWorkspace(db, events, { defaultTestCommand: testCommandSetting() ?? DEMO_TEST_COMMAND });
  const encoder = new TextEncoder();
  const cancelled = new AbortController();
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: object) => {
        if (!cancelled.signal.aborted) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      };
      try {
        const report = await forkRun(events, {
          until: input.until,
          client,
          continuedWith,
          workspace,
          redact: hubRedaction(db),
          progress: (progress) => send({ progress }),
          signal: cancelled.signal,
        });
        send({ report });
      } catch (error) {
        console.error("a fork failed after it started", error);
        send({ error: { message: `the fork stopped: ${error instanceof Error ? error.message : String(error)}` } });
      } finally {
        if (!cancelled.signal.aborted) controller.close();
      }
    },
    cancel() {
      cancelled.abort();
    },
  });
}
