// Launches a flight: the goal becomes a task the human approves, and a REQUEST to the orchestrator.
import { flights } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../../server/clock";
import { postMessage } from "../../server/relay/post-message";
import type { Principal } from "../../server/principals/types";
import { createTask } from "../../server/tasks/create";
import { TEAM_ROOM } from "./speak";

export const DEMO_GOAL = "Make parse('') return [] so that the repository's test suite passes.";

export interface LaunchFlightInput {
  goal: string;
  repo: string;
  mode: string;
}

export async function launchFlight(db: Db, human: Principal, input: LaunchFlightInput, clock: Clock) {
  const goalTask = await createTask(
    db,
    human,
    {
      title: `Goal: ${input.goal}`.slice(0, 200),
      description: `${input.goal}\nRepository: ${input.repo}`,
      acceptanceCriteria: "Every task is reviewed and integrated into main, and the full test suite passes on main.",
      approverId: human.id,
    },
    clock,
  );
  const [flight] = await db.insert(flights).values({ goal: input.goal, repo: input.repo, mode: input.mode, goalTaskId: goalTask.id }).returning();
  await postMessage(db, human, TEAM_ROOM, { body: `@orchestrator ${input.goal}`, performative: "REQUEST", to: "orchestrator", taskId: goalTask.id }, clock);
  return { flight, goalTask };
}
