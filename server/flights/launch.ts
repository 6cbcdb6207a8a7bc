// Launches a flight: the goal becomes a task the human approves, the flight row records the repository,
// and the system principal asks the orchestrator in the team's room, saying who started it — the human
// never appears to speak words they did not write.
import { flights } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principals/types";
import { getSystemPrincipal } from "../principals/create-principal";
import { postMessage } from "../relay/post-message";
import { insertTask } from "../tasks/create";
import type { TaskView } from "../tasks/view";

/** The room where the built-in team speaks. */
export const FLIGHT_ROOM = "general";

export type Flight = typeof flights.$inferSelect;

export interface LaunchFlightInput {
  goal: string;
  /** The git repository on the workers' machine. */
  repo: string;
  /** `scripted` or the model's name, as the worker reports it. */
  mode: string;
  /** How the flight began, said in the room before the goal ("Demo flight started by root from the CLI"). */
  origin?: string;
}

export async function launchFlight(db: Db, human: Principal, input: LaunchFlightInput, clock: Clock): Promise<{ flight: Flight; goalTask: TaskView }> {
  const now = clock.now();
  const launched = await db.transaction(async (tx) => {
    const goalTask = await insertTask(
      tx,
      human,
      {
        title: `Goal: ${input.goal}`.slice(0, 200),
        description: `${input.goal}\nRepository: ${input.repo}`,
        acceptanceCriteria: "Every task is reviewed and integrated into main, and the full test suite passes on main.",
        approverId: human.id,
      },
      now,
    );
    const [flight] = await tx.insert(flights).values({ goal: input.goal, repo: input.repo, mode: input.mode, goalTaskId: goalTask.id, createdAt: now, updatedAt: now }).returning();
    await appendEvent(tx, { kind: "FlightLaunched", actor: human.id, taskId: goalTask.id, t: now, data: { flightId: flight.id, goal: input.goal, mode: input.mode } });
    return { flight, goalTask };
  });
  // The REQUEST is a post like any other, in its own transaction; Quorum speaks it, naming who started the flight.
  const origin = input.origin ?? `Flight started by ${human.name}`;
  const system = await getSystemPrincipal(db);
  await postMessage(
    db,
    system,
    FLIGHT_ROOM,
    { body: `${origin}, goal task #${launched.goalTask.number}. @orchestrator ${input.goal}`, performative: "REQUEST", to: "orchestrator", taskId: launched.goalTask.id },
    clock,
  );
  return launched;
}

/** Whether any flight was ever launched (the first start launches the demo only once). */
export async function hasAnyFlight(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: flights.id }).from(flights).limit(1);
  return row !== undefined;
}
