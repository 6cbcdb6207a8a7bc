// A ready task can be fixed before anyone takes it: by its creator or a human, over PATCH /api/tasks/:id,
// journalled with what changed; once claimed it is 409, and nothing else may edit it.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
const editRoute = apiHandler("PATCH", "/api/tasks/[id]");
import { events } from "../../db/schema";
import { getDb } from "../../db/client";
import { makeReadyTask } from "../../test/fixtures/board";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { systemClock } from "../clock";
import { claimTask } from "./claim";
import { createTask } from "./create";
import { apiHandler } from "../../test/api";

const patch = (auth: { key?: string; cookie?: string }, id: string, body: unknown) => call(editRoute, `/api/tasks/${id}`, { ...auth, method: "PATCH", params: { id }, body });
const edits = async (taskId: string) =>
  getDb()
    .select({ data: events.data, actor: events.actor })
    .from(events)
    .where(and(eq(events.kind, "TaskEdited"), eq(events.taskId, taskId)));

describe("editing a ready task", () => {
  it("lets its creator and a human fix its words and approver, journalling what changed", async () => {
    const [filer, other, reviewer] = [await makeAgent(), await makeAgent(), await makeAgent(undefined, "reviewer")];
    const human = await makeHuman();
    const task = await createTask(getDb(), filer, { title: "Fix teh parser", description: "it breaks" }, systemClock);

    const fixed = await patch({ key: filer.key }, task.id, { title: "Fix the parser", acceptanceCriteria: "parse('') returns []" });
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({ title: "Fix the parser", acceptanceCriteria: "parse('') returns []", description: "it breaks" });
    expect((await patch({ key: other.key }, task.id, { title: "mine now" })).status).toBe(403);
    const reassigned = await patch({ cookie: human.cookie }, task.id, { approverId: reviewer.id });
    expect(reassigned.status).toBe(200);
    expect(reassigned.body.approverId).toBe(reviewer.id);
    // The same words again change nothing and journal nothing.
    expect((await patch({ key: filer.key }, task.id, { title: "Fix the parser" })).status).toBe(200);

    const journal = await edits(task.id);
    expect(journal.map((e) => [e.actor, (e.data as { changed: string[] }).changed])).toEqual([
      [filer.id, ["title", "acceptanceCriteria"]],
      [human.id, ["approverId"]],
    ]);
  });

  it("refuses an empty change, an unknown approver, and any edit once the task is claimed", async () => {
    const human = await makeHuman();
    const worker = await makeAgent();
    const task = await makeReadyTask(human, { title: "Claim me" });
    const empty = await patch({ cookie: human.cookie }, task.id, {});
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body.issues)).toContain("change at least one of");
    expect((await patch({ cookie: human.cookie }, task.id, { approverId: "00000000-0000-4000-8000-000000000000" })).status).toBe(404);
    await claimTask(getDb(), worker, task.id, systemClock);
    const late = await patch({ cookie: human.cookie }, task.id, { title: "Too late" });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error: "wrong_status", status: "in_progress" });
    expect(await edits(task.id)).toEqual([]);
  });
});

describe("a task named by its number", () => {
  it("is found by 12 and #12 on the task routes, and an unknown number is 404", async () => {
    const human = await makeHuman();
    const task = await makeReadyTask(human, { title: "By number" });
    for (const ref of [String(task.number), `#${task.number}`]) {
      const edited = await patch({ cookie: human.cookie }, ref, { description: `named as ${ref}` });
      expect(edited.status, ref).toBe(200);
      expect(edited.body).toMatchObject({ id: task.id, description: `named as ${ref}` });
    }
    expect((await patch({ cookie: human.cookie }, "99999999", { title: "nobody" })).status).toBe(404);
  });
});
