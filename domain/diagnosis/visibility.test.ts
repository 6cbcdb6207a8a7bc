// A diagnosis is read as its reader may read the journal: a finding that rests on a direct message reaches
// only the message's two ends and humans — computed on the fly (GET /api/diagnosis, the MCP tool) or
// journalled by the monitor (DiagnosisFound in GET /api/journal).
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
const diagnosisRoute = apiHandler("GET", "/api/diagnosis");
const journalRoute = apiHandler("GET", "/api/journal");
import { getDb } from "../../db/client";
import { events } from "../../db/schema";
import { manualClock } from "../clock";
import { appendEvent } from "../journal/append";
import { makeReadyTask } from "../../test/fixtures/board";
import { ackAll, freshRoom, tryPost } from "../../test/fixtures/room";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { httpClient } from "../../test/mcp/client";
import { apiHandler } from "../../test/api";

const clock = manualClock();

describe("a diagnosis under the visibility rule", () => {
  it("shows a finding that rests on a direct message to its two ends and humans, and never to a third agent", async () => {
    const db = getDb();
    const [asker, silent, outsider, human] = [await makeAgent(), await makeAgent(), await makeAgent(), await makeHuman()];
    const room = await freshRoom(human, "diag");
    const task = await makeReadyTask(human, {}, clock);
    await ackAll(asker, room, clock);
    const asked = await tryPost(asker, room, { body: "please review my change", performative: "REQUEST", to: silent.name, taskId: task.id }, clock);
    if (!asked.ok) throw new Error(`the direct REQUEST was refused: ${JSON.stringify(asked)}`);
    // The deadline chased it: the silent one was re-asked.
    await appendEvent(db, { kind: "ReplyReasked", actor: null, taskId: task.id, t: clock.now(), data: { awaiting: silent.id } });
    const [sent] = await db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.kind, "MessageSent"), sql`${events.data}->>'messageId' = ${String(asked.message.id)}`));

    const modesFor = async (who: { key?: string; cookie?: string }) => {
      const answer = await call(diagnosisRoute, `/api/diagnosis?task=${task.id}`, who);
      expect(answer.status).toBe(200);
      return answer.body.findings as { mode: string; eventIds: number[]; sentence: string }[];
    };
    const [seenByHuman] = await modesFor({ cookie: human.cookie });
    expect(seenByHuman).toMatchObject({ mode: "FM-2.5", sentence: `${silent.name} did not answer ${asker.name}'s REQUEST on #${task.number}, and was re-asked` });
    expect(seenByHuman.eventIds).toContain(sent.id);
    expect((await modesFor({ key: asker.key })).map((f) => f.mode)).toEqual(["FM-2.5"]);
    expect((await modesFor({ key: silent.key })).map((f) => f.mode)).toEqual(["FM-2.5"]);
    expect(await modesFor({ key: outsider.key })).toEqual([]);
    for (const query of ["since=0", `since=${new Date(0).toISOString()}`]) {
      const since = await call(diagnosisRoute, `/api/diagnosis?${query}`, { key: outsider.key });
      expect(JSON.stringify(since.body), query).not.toContain(String(sent.id));
    }

    // Over MCP, the same: the outsider's diagnosis of the task holds nothing.
    const mcp = await httpClient(outsider.key);
    try {
      const result = await mcp.callTool({ name: "diagnose", arguments: { task: task.id } });
      expect((result.structuredContent as { findings: unknown[] }).findings).toEqual([]);
    } finally {
      await mcp.close();
    }

    // Journalled by the monitor, the finding cites the message's event: the journal hides it from the outsider alone.
    await appendEvent(db, {
      kind: "DiagnosisFound",
      actor: null,
      taskId: task.id,
      t: clock.now(),
      data: {
        key: `FM-2.5:${sent.id}@medium`,
        flightId: task.id,
        mode: "FM-2.5",
        name: "Ignored other agent's input",
        category: 2,
        severity: "medium",
        sentence: seenByHuman.sentence,
        eventIds: seenByHuman.eventIds,
        runIds: [],
        taskIds: [task.id],
        agents: [asker.id, silent.id],
      },
    });
    const journalled = async (who: { key?: string; cookie?: string }) => ((await call(journalRoute, "/api/journal?kind=DiagnosisFound", who)).body.items as unknown[]).length;
    expect(await journalled({ cookie: human.cookie })).toBe(1);
    expect(await journalled({ key: asker.key })).toBe(1);
    expect(await journalled({ key: silent.key })).toBe(1);
    expect(await journalled({ key: outsider.key })).toBe(0);
  });
});
