// The loop's journal in Postgres: each step goes through the run fence in domain/runs, so only one
// process advances a run; the budget and stop questions are domain/ reads too.
import type { Db, Tx } from "../db/client";
import type { Clock } from "../domain/clock";
import { exhaustedBudget } from "../domain/budgets/spend";
import type { Mail } from "../domain/runs/run-events";
import { appendRunStep, stopPending } from "../domain/runs/fence";
import type { RunJournal } from "./loop";

/**
 * The agent's delivered mail for one turn, read (and, if it consumes, marked) inside the
 * transaction that journals ModelCalled with it, so mail is never lost between the two.
 */
export type Inbox = (tx: Tx, who: { agentId: string; runId: string; turn: number }) => Promise<Mail[]>;

export function databaseJournal(db: Db, options: { clock: Clock; inbox?: Inbox }): RunJournal {
  const { clock, inbox } = options;
  return {
    append: (state, drafts) => appendRunStep(db, state, clock, async () => drafts),
    beginTurn: (state, turn, describe) =>
      appendRunStep(db, state, clock, async (tx) => {
        const mail = inbox ? await inbox(tx, { agentId: state.agentId!, runId: state.runId!, turn }) : [];
        return [{ kind: "ModelCalled", turn, data: describe(mail) }];
      }),
    stopRequested: async (state) => ((await stopPending(db, state.runId!)) ? "an operator asked to stop" : null),
    exhaustedBudget: (state) => exhaustedBudget(db, state.config!.budgetIds),
  };
}
