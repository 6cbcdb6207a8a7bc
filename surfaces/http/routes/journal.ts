// The journal: news for agents, pages, exports, a run's timeline and replay, a task's audit and thread, the live stream.
import { taskAudit, taskThread } from "@/domain/tasks/task-journal";
import { loadReplayableRun, loadRunTimeline } from "@/domain/runs/run-journal";
import { z } from "zod";
import { openEventStream } from "@/domain/journal/stream";
import { authenticate, touchPresence } from "@/domain/principals/authenticate";
import { credentialsOf } from "../handler";
import { exportFileName, exportQuery, openExport } from "@/domain/journal/export";
import { listJournal, listJournalQuery } from "@/domain/journal/list";
import { forkRunInput } from "@/domain/runs/fork-input";
import { journalArchivesQuery, listJournalArchives } from "@/domain/retention/archives";
import { waitForEvents, waitForEventsQuery } from "@/domain/journal/wait-for-events";
import * as v from "../views";
import { uuidId, runId, ok, type RouteSpec, TAGS, endpoint } from "./route-spec";
import * as out from "@/surfaces/mcp/outputs";
import { READ } from "@/surfaces/mcp/tool";

export const JOURNAL_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/events",
    tag: TAGS.journal,
    summary: "News for agents: a long-poll (≤ 25 s) over the journal; reading never acks",
    access: "principal",
    query: waitForEventsQuery,
    answers: ok(v.events),
    refusals: [],
    tool: {
      name: "wait_for_events",
      description:
        "Wait up to timeoutSeconds (≤25) for journal news after `after` (omit: from now); returns at once if any. Pass `next` as `after` next time. forMe marks what concerns you. Never acks.",
      hints: READ,
      output: out.eventsOut,
    },
    run: async ({ ctx, caller, query, signal }) => await waitForEvents(ctx.db, caller, query, ctx.subscribe, signal),
  }),
  endpoint({
    method: "get",
    path: "/api/journal",
    tag: TAGS.journal,
    summary: "Journal events, cursor-paginated (`after=` pages are commit-safe)",
    access: "principal",
    query: listJournalQuery,
    answers: ok(v.page(v.journalEntry)),
    refusals: [],
    run: async ({ ctx, caller, query }) => await listJournal(ctx.db, { ...query, viewer: caller }),
  }),
  endpoint({
    method: "get",
    path: "/api/journal/archives",
    tag: TAGS.journal,
    summary: "The journal's archived months: where every view that reaches back stops (`quorum journal restore` brings one back)",
    description: "With `run` or `task`, the months holding that run's or task's events. `file` is the archive's path on the hub's machine, for humans (null for agents).",
    access: "principal",
    query: journalArchivesQuery,
    answers: ok(z.looseObject({ items: z.array(v.journalArchive) })),
    refusals: [],
    run: async ({ ctx, caller, query }) => await listJournalArchives(ctx.db, caller, query),
  }),
  endpoint({
    method: "get",
    path: "/api/journal/export",
    tag: TAGS.journal,
    summary: "A run's or a task's events as a JSON Lines download",
    access: "principal",
    query: exportQuery,
    answers: [{ status: 200, description: "One journal event per line", contentType: "application/x-ndjson", schema: v.exportLine }],
    refusals: [404],
    run: async ({ ctx, caller, query }) => {
      const lines = await openExport(ctx.db, query, caller);
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await lines.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        },
        async cancel() {
          await lines.return(undefined);
        },
      });
      return new Response(body, {
        headers: {
          "Content-Type": "application/x-ndjson; charset=utf-8",
          "Content-Disposition": `attachment; filename="${exportFileName(query)}"`,
          "Cache-Control": "no-store",
        },
      });
    },
  }),
  endpoint({
    method: "get",
    path: "/api/journal/runs/{id}",
    tag: TAGS.journal,
    summary: "A run's timeline: turns, model calls, tool calls with results, tokens",
    access: "principal",
    params: runId,
    answers: ok(v.anyObject),
    refusals: [404],
    run: async ({ ctx, caller, params }) => {
      const { id } = params;
      return await loadRunTimeline(ctx.db, id, caller);
    },
  }),
  endpoint({
    method: "get",
    path: "/api/journal/runs/{id}/replay",
    tag: TAGS.journal,
    summary: "Re-live a run from its journal and say whether it is identical",
    access: "principal",
    params: runId,
    answers: ok(v.anyObject),
    refusals: [404, 409],
    otherConflicts: ["not_replayable"],
    run: async ({ ctx, caller, params }) => {
      const { id } = params;
      // The agent runtime loads with the first replay or fork, not with every process that imports the API.
      const { replayRun } = await import("@/agents/replay");
      return await replayRun(await loadReplayableRun(ctx.db, id, caller));
    },
  }),
  endpoint({
    method: "post",
    path: "/api/journal/runs/{id}/fork",
    tag: TAGS.journal,
    summary: "Fork a run (humans): re-live it up to an event, carry it on with a script or the live model on a scratch copy of its files, and compare the two journals",
    description:
      'Long work: the answer streams JSON Lines, `{"progress": text}` as each step lands, then `{"report": …}` (the first divergence and both journals from the fork point), or `{"error": {message}}` should the continuation fail. Nothing is written to the hub\'s journal, its budgets or any repository.',
    access: "principal",
    params: runId,
    body: forkRunInput,
    answers: [{ status: 200, description: "Progress, then the report, one JSON object per line", contentType: "application/x-ndjson", schema: v.forkLine }],
    refusals: [403, 404, 409],
    otherConflicts: ["not_replayable", "not_forkable", "no_model"],
    run: async ({ ctx, caller, params, body }) => {
      const { forkAsLines } = await import("@/agents/fork-lines");
      return new Response(await forkAsLines(ctx.db, caller, params.id, body), { headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store" } });
    },
  }),
  endpoint({
    method: "get",
    path: "/api/journal/tasks/{id}/audit",
    tag: TAGS.journal,
    summary: "Who approved or rejected what, on which evidence",
    access: "principal",
    params: uuidId,
    answers: ok(v.anyObject),
    refusals: [404],
    run: async ({ ctx, caller, params }) => {
      const { id } = params;
      return await taskAudit(ctx.db, id, caller);
    },
  }),
  endpoint({
    method: "get",
    path: "/api/journal/tasks/{id}/thread",
    tag: TAGS.journal,
    summary: "The task's messages, transitions and run milestones, in order",
    access: "principal",
    params: uuidId,
    answers: ok(v.anyObject),
    refusals: [404],
    run: async ({ ctx, caller, params }) => {
      const { id } = params;
      return await taskThread(ctx.db, id, caller);
    },
  }),
  endpoint({
    method: "get",
    path: "/api/stream",
    tag: TAGS.journal,
    summary: "Server-Sent Events: every committed event you may see, live, with a heartbeat every 5 s",
    description: "Resumes from `Last-Event-ID` (or `?after=`). At most 8 open per principal: 429 `too_many_streams` with `retryAfterMs`.",
    access: "principal",
    answers: [{ status: 200, description: "An event stream", contentType: "text/event-stream", schema: z.string() }],
    refusals: [429],
    run: async ({ ctx, caller, request }) => {
      const lastId = Number(request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("after") ?? Number.NaN);
      const stillAuthenticated = async () => (await authenticate(ctx.db, credentialsOf(request), ctx.clock))?.id === caller.id;
      const stream = openEventStream(ctx, caller, {
        after: Number.isInteger(lastId) && lastId >= 0 ? lastId : null,
        signal: request.signal,
        stillAuthenticated,
        stillHere: () => touchPresence(ctx.db, caller.id, ctx.clock.now()),
      });
      return new Response(stream, {
        headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", Connection: "keep-alive", "X-Accel-Buffering": "no" },
      });
    },
  }),
];
