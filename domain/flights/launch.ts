// Launches a flight: a human's goal on a repository of theirs. The goal becomes a task the human approves;
// the flight records where the team works (its own clone under QUORUM_HOME, never the user's checkout), the
// commit it starts from, the branch it integrates into and the command that runs the tests; its allowance is
// a budget of its own. Then the system principal asks the orchestrator in the team's room, saying who
// started it — the human never appears to speak words they did not write.
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { flights } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import { quorumHome } from "../../db/home";
import { createFlightBudget, DEFAULT_FLIGHT_ALLOWANCE } from "../budgets/flight-budget";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { getSystemPrincipal } from "../principals/create-principal";
import { postMessage } from "../rooms/post-message";
import { insertTask } from "../tasks/create";
import { textField } from "../tasks/text";
import type { TaskView } from "../tasks/view";
import { commitAgentFlight } from "./agent-allowance";
import { parseRemote, syncRemote } from "./remote";
import { detectTestCommand, filesAt, inspectRepository } from "./repository";
import { chooseSetup } from "./setup-command";

/** The room where the built-in team speaks. */
export const FLIGHT_ROOM = "general";

export type Flight = typeof flights.$inferSelect;

/** What a human gives to start a flight (POST /api/flights, `quorum flight start`, the New flight dialog). */
export const startFlightInput = z.strictObject({
  /**
   * The repository: its folder on the team's machine (an absolute path to a git repository with a commit), or
   * its https URL (the hub clones it, with the forge's token from Settings → Forges).
   */
  repo: z.string().trim().min(1, "name the repository's folder or URL").max(4096),
  goal: textField(4000, "a flight needs a goal"),
  /** A shell command run in the repository's folder; detected from the repository when absent. */
  testCommand: z.string().trim().min(1).max(1000).optional(),
  /**
   * A shell command that installs the repository's dependencies before the team works (network only to package
   * registries); the repository's `.quorum/setup`, or one detected from its lockfiles, when absent; "" for none.
   */
  setupCommand: z.string().trim().max(2000).optional(),
  /** Tokens the whole flight may spend; DEFAULT_FLIGHT_ALLOWANCE when absent. */
  allowance: z.number().int().min(1_000).max(1_000_000_000).optional(),
  /** A remote repository's flight opens a draft pull request as soon as it is green, marked ready once its goal is accepted. */
  draftPullRequest: z.boolean().optional(),
});
export type StartFlightInput = z.infer<typeof startFlightInput>;

export interface LaunchFlightInput extends StartFlightInput {
  /** `scripted` or the model's name, as the worker reports it. */
  mode: string;
  /** How the flight began, said in the room before the goal ("Demo flight started by root from the CLI"). */
  origin?: string;
  /** Where flights keep their clones: QUORUM_HOME by default. */
  home?: string;
  /** A demo flight says so in its goal's title, so that one demo's card is not mistaken for another's. */
  demo?: boolean;
  /** The human whose review the goal waits for; the one who starts it, unless an agent asked (./start.ts decides who). */
  approver?: Principal;
  /** The forge issue the flight was proposed from (./proposals.ts). */
  fromIssue?: FromIssue;
}

/** A flight started from a proposed issue: the issue's number, and what records the proposal as started in the launch's transaction. */
export interface FromIssue {
  number: number;
  claim(tx: Executor, flight: Flight): Promise<void>;
}

/** The branch a flight integrates into, in its clone and in the user's repository. */
export function flightBranchName(number: number): string {
  return `quorum/flight-${number}`;
}

export async function launchFlight(db: Db, starter: Principal, input: LaunchFlightInput, clock: Clock): Promise<{ flight: Flight; goalTask: TaskView }> {
  const human = input.approver ?? starter;
  if (human.kind !== "human") throw fail.forbidden("flight", "a flight's goal waits for a human's review: a human starts it, or an agent asks for one that a human reviews");
  // A URL is fetched into the hub's own clone first (./remote.ts); a flight then starts from that clone as from a folder.
  const remote = parseRemote(input.repo);
  if (input.draftPullRequest && !remote) {
    throw fail.invalid("flight", "a draft pull request needs a repository on a forge: give its https URL, or leave the draft out", {
      issues: [{ path: ["draftPullRequest"], message: "only for a repository named by its URL" }],
    });
  }
  const source = await inspectRepository(remote ? await syncRemote(db, remote, input.home) : input.repo);
  const testCommand = input.testCommand ?? (await detectTestCommand(source.path, source.head));
  if (!testCommand) {
    throw fail.invalid("flight", `could not tell how to run the tests of ${source.path}: give a test command (for example \`npm test\` or \`make test\`)`, {
      issues: [{ path: ["testCommand"], message: "not detected: give one" }],
    });
  }
  const setup = await chooseSetup(await filesAt(source.path, source.head), input.setupCommand);
  const allowance = input.allowance ?? DEFAULT_FLIGHT_ALLOWANCE;
  const now = clock.now();
  const system = await getSystemPrincipal(db);
  const launched = await db.transaction(async (tx) => {
    if (starter.kind === "agent") await commitAgentFlight(tx, starter, allowance);
    const [{ number }] = await tx.execute<{ number: number }>(sql`select nextval(pg_get_serial_sequence('flights', 'number'))::int as number`);
    const branch = flightBranchName(number);
    const goalTask = await insertTask(
      tx,
      starter,
      {
        // The flight's number tells apart goals of the same words (every demo has the same goal).
        title: `Goal of ${input.demo ? "demo flight" : "flight"} ${number}: ${input.goal}`.slice(0, 200),
        description: `${input.goal}\nRepository: ${remote?.url ?? source.path} (from ${source.branch ?? "its HEAD"} at ${source.head.slice(0, 12)}); the team integrates into ${branch}.`,
        acceptanceCriteria: `Every task is reviewed and integrated into ${branch}, and the repository's tests (\`${testCommand}\`) pass there.`,
        approverId: human.id,
      },
      now,
    );
    const budget = await createFlightBudget(tx, { systemId: system.id, goalTaskId: goalTask.id, number, allowance, createdBy: starter.id }, now);
    const [flight] = await tx
      .insert(flights)
      .values({
        number,
        goal: input.goal,
        repo: join(input.home ?? quorumHome(), "flights", String(number), "repo"),
        source: source.path,
        remote: remote?.url ?? null,
        issueNumber: input.fromIssue?.number ?? null,
        draftPullRequest: input.draftPullRequest ?? false,
        baseCommit: source.head,
        baseBranch: source.branch,
        branch,
        testCommand,
        setupCommand: setup?.command ?? null,
        setupSource: setup?.source ?? null,
        budgetId: budget.id,
        createdBy: starter.id,
        mode: input.mode,
        goalTaskId: goalTask.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await appendEvent(tx, {
      kind: "FlightLaunched",
      actor: starter.id,
      taskId: goalTask.id,
      t: now,
      data: {
        flightId: flight.id,
        number,
        goal: input.goal,
        mode: input.mode,
        source: source.path,
        branch,
        baseCommit: source.head,
        baseBranch: source.branch,
        testCommand,
        setupCommand: setup?.command ?? null,
        allowance,
        remote: remote?.url ?? null,
        draftPullRequest: input.draftPullRequest ?? false,
      },
    });
    await input.fromIssue?.claim(tx, flight);
    return { flight, goalTask };
  });
  // The REQUEST is a post like any other, in its own transaction; Quorum speaks it, naming who started the flight.
  const origin = input.origin ?? `Flight ${launched.flight.number} started by ${starter.name}${starter.id === human.id ? "" : ` for ${human.name}'s review`}`;
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
