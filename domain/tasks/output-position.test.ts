// A writer that names where its items go can send a write again after no answer came: what is
// stored already is not stored twice, and a write meant for another place is refused.
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { appendOutput } from "./append-output";
import { claimTask } from "./claim";
import { listOutput } from "./list-output";
import { makeReadyTask, makeTeam, taskEventKinds } from "../../test/fixtures/board";

async function claimedTask() {
  const clock = manualClock(new Date());
  const {
    lead,
    workers: [ada],
  } = await makeTeam(1);
  const task = await makeReadyTask(lead, {}, clock);
  await claimTask(getDb(), ada, task.id, clock);
  return { clock, ada, id: task.id };
}

const stored = async (id: string) => (await listOutput(getDb(), id, {})).items.map((i) => i.item);
const outputEvents = async (id: string) => (await taskEventKinds(id)).filter((k) => k === "OutputAppended").length;

describe("output with a position", () => {
  it("stores a repeated write once, and journals only what it stored", async () => {
    const db = getDb();
    const { clock, ada, id } = await claimedTask();
    await appendOutput(db, ada, id, { fence: 1, from: 1, items: [{ step: 1, files: ["a.ts", "b.ts"] }] }, clock);
    // The same write again (its answer was lost), keys in another order: JSON-equal, so already there.
    const again = await appendOutput(db, ada, id, { fence: 1, from: 1, items: [{ files: ["a.ts", "b.ts"], step: 1 }] }, clock);
    expect(again.outputCount).toBe(1);
    expect(await outputEvents(id)).toBe(1);
    // A write that overlaps what is stored and goes on: only the new item is stored.
    const overlapping = await appendOutput(db, ada, id, { fence: 1, from: 1, items: [{ step: 1, files: ["a.ts", "b.ts"] }, { step: 2 }] }, clock);
    expect(overlapping.outputCount).toBe(2);
    expect(await stored(id)).toEqual([{ step: 1, files: ["a.ts", "b.ts"] }, { step: 2 }]);
    expect(await outputEvents(id)).toBe(2);
    // At the end, a position is an ordinary append; without one, too.
    await appendOutput(db, ada, id, { fence: 1, from: 3, items: [{ step: 3 }] }, clock);
    await appendOutput(db, ada, id, { fence: 1, items: [{ step: 4 }] }, clock);
    expect(await stored(id)).toEqual([{ step: 1, files: ["a.ts", "b.ts"] }, { step: 2 }, { step: 3 }, { step: 4 }]);
  });

  it("refuses a write whose place holds other items, or lies past the end, and changes nothing", async () => {
    const db = getDb();
    const { clock, ada, id } = await claimedTask();
    await appendOutput(db, ada, id, { fence: 1, from: 1, items: ["one", "two"] }, clock);
    for (const input of [
      { fence: 1, from: 2, items: ["deux"] },
      { fence: 1, from: 1, items: ["one", "deux", "three"] },
      { fence: 1, from: 4, items: ["four"] },
    ]) {
      await expect(appendOutput(db, ada, id, input, clock), JSON.stringify(input)).rejects.toMatchObject({
        status: 409,
        code: "output_conflict",
        extra: { outputCount: 2 },
      });
    }
    expect(await stored(id)).toEqual(["one", "two"]);
    expect(await outputEvents(id)).toBe(1);
  });

  it("still refuses a stale fence first: a repeated write from a lost lease is not answered as stored", async () => {
    const db = getDb();
    const { clock, ada, id } = await claimedTask();
    await appendOutput(db, ada, id, { fence: 1, from: 1, items: ["one"] }, clock);
    await expect(appendOutput(db, ada, id, { fence: 0, from: 1, items: ["one"] }, clock)).rejects.toMatchObject({ code: "stale_fence" });
  });
});
