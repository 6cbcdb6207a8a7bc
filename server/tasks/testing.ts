// Fixtures for the board's tests: a team (an approving human, working agents) and tasks to work.
import { eq } from "drizzle-orm";
import { events } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { touchPresence } from "../principals/authenticate";
import type { Principal } from "../principals/types";
import { makeAgent, makeHuman } from "../../test/helpers";
import { createTask, type CreateTaskInput } from "./create";

export async function makeTeam(agents = 2) {
  const lead = await makeHuman();
  const workers = await Promise.all(Array.from({ length: agents }, () => makeAgent()));
  return { lead, workers };
}

export async function makeReadyTask(creator: Principal, input: Partial<CreateTaskInput> = {}, clock = manualClock()) {
  return createTask(getDb(), creator, { title: "Fix parse('')", acceptanceCriteria: "parse('') returns []; the test suite passes", ...input }, clock);
}

/** Marks principals present as of the clock's now (what any authenticated request does). */
export async function markPresent(clock: { now(): Date }, ...who: Principal[]) {
  for (const p of who) await touchPresence(getDb(), p.id, clock.now());
}

/** The task's journal, oldest first: kinds, to assert each transition left its event. */
export async function taskEventKinds(taskId: string): Promise<string[]> {
  const rows = await getDb().select({ kind: events.kind }).from(events).where(eq(events.taskId, taskId)).orderBy(events.id);
  return rows.map((r) => r.kind);
}
