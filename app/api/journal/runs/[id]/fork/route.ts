// POST /api/journal/runs/:id/fork {until, script | live}: re-lives the run up to an event, carries it on with the
// script (or the live model) on a scratch copy of its files with real tools, in memory, and compares the two
// journals (agents/fork.ts). Humans only. It is long work: the answer streams JSON Lines, `{"progress": …}` as
// each step lands, then `{"report": …}` (or `{"error": …}` should the continuation fail); the hub's journal is
// never written. What can be refused is refused before the stream starts, with its status.
import { z } from "zod";
import { checkForkable, forkClient, forkRun } from "@/agents/fork";
import { forkWorkspace } from "@/agents/fork-workspace";
import { hubRedaction } from "@/agents/run";
import { DEMO_TEST_COMMAND } from "@/agents/team/worker";
import { quorumVariables, testCommandSetting } from "@/server/config";
import { runIdSchema } from "@/server/journal/load";
import { forkRunInput, requireForker } from "@/server/runs/fork-input";
import { loadReplayableRun } from "@/server/runs/run-journal";
import { callerOf, handle, readBody } from "../../../../_lib/http";
import { readParams } from "../../../_lib/params";

export const dynamic = "force-dynamic";

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    requireForker(caller);
    const { id } = await readParams(params, z.strictObject({ id: runIdSchema }));
    const input = await readBody(req, forkRunInput);
    const events = await loadReplayableRun(ctx.db, id, caller);
    checkForkable(events, input.until);
    const { client, continuedWith } = await forkClient(ctx.db, events, input, quorumVariables());
    const workspace = await forkWorkspace(ctx.db, events, { defaultTestCommand: testCommandSetting() ?? DEMO_TEST_COMMAND });
    const encoder = new TextEncoder();
    const cancelled = new AbortController();
    const body = new ReadableStream<Uint8Array>({
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
            redact: hubRedaction(ctx.db),
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
      // The reader left: the continuation stops at its next turn boundary.
      cancel() {
        cancelled.abort();
      },
    });
    return new Response(body, { headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store" } });
  });
}
