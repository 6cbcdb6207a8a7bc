// Seed 000, Exercise 9: Gode and Sunder's zero-intelligence test turned on the harness. The built-in team flies
// the demo's goal four times on the real loop: a competent or a stub coder, a rule or a rubber-stamp reviewer,
// and a stub tester throughout. What holds in every cell is the harness's doing; what differs is the roles'.
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { systemClock } from "../../domain/clock";
import type { ServerContext } from "../../domain/context";
import { EXPERIMENT_CATALOG, type ExperimentTable } from "../../domain/experiments/report";
import { launchFlight } from "../../domain/flights/launch";
import { readFlight } from "../../domain/flights/view";
import { loadTaskEvents } from "../../domain/journal/load";
import { payloadOf } from "../../domain/journal/payloads";
import { ensureHuman } from "../../domain/principals/create-principal";
import { createScratchRepo, DEMO_GOAL } from "../demo/scratch-repo";
import type { ScriptEntry, ScriptStep } from "../model/scripted";
import type { ScriptInput } from "../team/context";
import { coderScript, reviewerScript } from "../team/scripts";
import { ensureTeam } from "../team/team";
import { runTeamWorker } from "../team/worker";
import { databaseOf, type Experiment } from "./experiment";
import { suiteOnBranch, type SuiteVerdict } from "./suite";
import { untilJournalShows } from "./wait";

type Script = (input: ScriptInput) => ScriptStep[];

/** A zero-intelligence reply: one fixed `done`, whatever it was shown, at the seed's nominal 5 tokens. */
const NOMINAL = { inputTokens: 4, outputTokens: 1 };
const done = (summary: string): ScriptEntry => ({ toolCalls: [{ name: "done", arguments: { summary, evidence: [] } }], usage: NOMINAL });

export const ZI_CODERS = { competent: coderScript, stub: () => [done("Done.")] } satisfies Record<string, Script>;
export const ZI_REVIEWERS = {
  rule: (input) => reviewerScript(input.diff ?? "", input.evidence ?? ""),
  "rubber-stamp": () => [{ toolCalls: [{ name: "verdict", arguments: { verdict: "accept", reason: "LGTM" } }], usage: NOMINAL }, done("Approved.")],
} satisfies Record<string, Script>;
const stubTester: Script = () => [done("Tested.")];

export type CoderKind = keyof typeof ZI_CODERS;
export type ReviewerKind = keyof typeof ZI_REVIEWERS;

export interface Cell {
  coder: CoderKind;
  reviewer: ReviewerKind;
  /** The flight's status when it settled (green or red), or `timeout`. */
  outcome: string;
  /** Tokens the flight's budget was debited, every role's runs included. */
  spent: number;
  accepted: boolean;
  rejections: number;
  integrated: boolean;
  /** Integrations with no ACCEPT before them on their task: the harness's gate says never. */
  unaccepted: number;
  /** The repository's own suite, run sandboxed on the flight's branch in the user's repository. */
  suite: SuiteVerdict;
}

/** How long a cell may take before it is called a timeout. */
const CELL_DEADLINE_MS = 180_000;

/** Flies one cell: a scratch repository whose suite is red, a flight on it, the team with these scripts until the flight settles. */
export async function flyCell(server: ServerContext, scratch: string, coder: CoderKind, reviewer: ReviewerKind, signal?: AbortSignal): Promise<Cell> {
  const { db } = server;
  const repo = createScratchRepo(mkdtempSync(join(scratch, `zi-${coder}-${reviewer}-`)));
  const human = await ensureHuman(db, "experimenter", systemClock);
  // The flight's REQUEST is addressed to the team's orchestrator: the team exists before the flight does.
  await ensureTeam(db, systemClock);
  const { flight } = await launchFlight(db, human, { goal: DEMO_GOAL, repo, mode: "scripted", home: scratch }, systemClock);
  const stop = new AbortController();
  const worker = runTeamWorker(server, {
    roles: ["orchestrator", "coder", "reviewer", "tester"],
    model: null,
    signal: stop.signal,
    log: () => {},
    scripts: { coder: ZI_CODERS[coder], reviewer: ZI_REVIEWERS[reviewer], tester: stubTester },
    releaseCoolDownMs: 1_000,
  });
  let settled: string | null;
  try {
    settled = await untilJournalShows(
      server,
      async () => {
        const { status } = await readFlight(db, flight.id);
        return status === "green" || status === "red" ? status : null;
      },
      CELL_DEADLINE_MS,
      signal,
    );
  } finally {
    stop.abort();
    await worker;
  }
  const view = await readFlight(db, flight.id);
  const history = (await Promise.all(view.tasks.map((t) => loadTaskEvents(db, t.id)))).flat().sort((a, b) => a.id - b.id);
  const verdicts = history.filter((e) => e.kind === "TaskReviewed").map((e) => ({ id: e.id, taskId: e.taskId, verdict: payloadOf(e, "TaskReviewed").verdict }));
  const integrations = history.filter((e) => e.kind === "TaskIntegrated");
  return {
    coder,
    reviewer,
    outcome: settled ?? "timeout",
    spent: view.budget?.spent ?? 0,
    accepted: verdicts.some((v) => v.verdict === "accept"),
    rejections: verdicts.filter((v) => v.verdict === "reject").length,
    integrated: integrations.length > 0,
    unaccepted: integrations.filter((i) => !verdicts.some((v) => v.taskId === i.taskId && v.id < i.id && v.verdict === "accept")).length,
    suite: await suiteOnBranch(repo, view.branch, scratch),
  };
}

export const zeroIntelligenceParameters = z.strictObject({});
export type ZeroIntelligenceParameters = z.infer<typeof zeroIntelligenceParameters>;

const yes = (b: boolean) => (b ? "yes" : "no");

export function zeroIntelligenceTable(cells: Cell[]): ExperimentTable {
  return {
    title: "Zero intelligence: competent or stub coder × rule or rubber-stamp reviewer (seed 000, Exercise 9)",
    question: "Flown by the real team on the demo's goal, what does each cell of the 2×2 deliver, at what spend, and which properties hold whatever the roles' wits?",
    parameters: {},
    columns: ["coder", "reviewer", "outcome", "spend (tokens)", "ACCEPT present", "rejections", "integrated", "integrated without an ACCEPT", "suite green on the branch"],
    rows: cells.map((c) => [
      c.coder,
      c.reviewer,
      c.outcome,
      c.spent.toLocaleString("en-US"),
      yes(c.accepted),
      String(c.rejections),
      yes(c.integrated),
      String(c.unaccepted),
      c.suite === "no branch" ? "no branch (nothing integrated)" : yes(c.suite === "green"),
    ]),
    notes: [
      "Each cell is a flight of the built-in team on a fresh copy of the demo repository (parse('') fails its test), on the real loop, tools and gates, with the roles scripted: the competent coder and the rule reviewer are the team's own scripts (agents/team/scripts.ts: the rule accepts a non-empty diff whose test run passed); the stub coder answers one fixed `done` with no change and no test run, the rubber stamp accepts whatever it sees, and the stub tester says `done` without running anything.",
      "Spend is what the flight's budget was debited (every role's runs): the team's scripts are billed as the hub estimates a scripted exchange; each stub reply is billed the seed's nominal 5 tokens.",
      "Outcome is the flight's status: green only when the tester's own suite run passed on the branch after every task was integrated. The stub tester runs nothing, so no cell goes green, whatever the branch holds; the last column runs the repository's suite on the branch (sandboxed, as the team runs it) to say what each cell actually delivered.",
      "Held in every cell, by the harness: budgets bounded every role; nothing was integrated without an ACCEPT on its task; an integrated branch appears only after review. Supplied by the harness in no cell: a correct change (the stub coder's branch is red) or a meaningful ACCEPT (the rubber stamp accepted the empty diff). With a rubber stamp the integrate gate checks only that an ACCEPT exists, not what it is worth.",
    ],
  };
}

export const zeroIntelligenceExperiment: Experiment<ZeroIntelligenceParameters> = {
  name: "zero-intelligence",
  ...EXPERIMENT_CATALOG["zero-intelligence"],
  parameters: zeroIntelligenceParameters,
  database: true,
  async run(ctx) {
    const { server } = databaseOf(ctx);
    const cells: Cell[] = [];
    for (const coder of Object.keys(ZI_CODERS) as CoderKind[]) {
      for (const reviewer of Object.keys(ZI_REVIEWERS) as ReviewerKind[]) {
        if (ctx.signal?.aborted) throw new Error("interrupted");
        ctx.progress(`flying ${coder} coder × ${reviewer} reviewer`);
        const cell = await flyCell(server, ctx.scratch, coder, reviewer, ctx.signal);
        ctx.progress(`  ${cell.outcome}, ${cell.spent} tokens, ${cell.integrated ? "integrated" : "not integrated"}, suite ${cell.suite}`);
        cells.push(cell);
      }
    }
    return zeroIntelligenceTable(cells);
  },
};
