// The JSON shape of a decision (with its tally and every ballot's reasoning) and how to read it.
import { asc, eq, inArray } from "drizzle-orm";
import { ballots, decisions, principals, type DecisionStatus } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import { isUuid } from "../ids";

export type { DecisionStatus };
export type DecisionRow = typeof decisions.$inferSelect;
type Kind = "human" | "agent" | "system";

export interface TallyEntry {
  option: string;
  count: number;
}

export interface BallotView {
  id: string;
  decisionId: string;
  voterId: string;
  voterName: string;
  voterKind: Kind;
  option: string;
  reasoning: string;
  castAt: string;
}

export interface DecisionView {
  id: string;
  number: number;
  question: string;
  options: string[];
  defaultOption: string;
  consequence: string;
  quorum: number;
  status: DecisionStatus;
  outcome: string | null;
  timeboxAt: string;
  escalationTimeboxSeconds: number;
  escalatedAt: string | null;
  escalationDeadline: string | null;
  envelope: string | null;
  openedBy: string;
  openedByName: string;
  resolvedBy: string | null;
  resolvedByName: string | null;
  decidedAt: string | null;
  createdAt: string;
  tally: TallyEntry[];
  ballots: BallotView[];
}

/** Ballots per option, in the decision's own option order (zero counts included). */
export function tallyOf(options: string[], cast: { option: string }[]): TallyEntry[] {
  return options.map((option) => ({ option, count: cast.filter((b) => b.option === option).length }));
}

/** The plurality winner, or null on a tie at the top (which escalates). */
export function pluralityOf(tally: TallyEntry[]): string | null {
  const top = Math.max(...tally.map((t) => t.count));
  const leaders = tally.filter((t) => t.count === top);
  return leaders.length === 1 ? leaders[0].option : null;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The ballots of many decisions in one query, with their voters' names. */
export async function readBallots(db: Executor, decisionIds: string[]): Promise<BallotView[]> {
  if (decisionIds.length === 0) return [];
  const rows = await db
    .select({ ballot: ballots, voterName: principals.name, voterKind: principals.kind })
    .from(ballots)
    .innerJoin(principals, eq(principals.id, ballots.voterId))
    .where(inArray(ballots.decisionId, decisionIds))
    .orderBy(asc(ballots.castAt), asc(ballots.id));
  return rows.map(({ ballot, voterName, voterKind }) => ({
    id: ballot.id,
    decisionId: ballot.decisionId,
    voterId: ballot.voterId,
    voterName,
    voterKind,
    option: ballot.option,
    reasoning: ballot.reasoning,
    castAt: ballot.castAt.toISOString(),
  }));
}

/** Decision rows become views with their tallies, ballots and the names of who opened and resolved them. */
export async function toDecisionViews(db: Executor, rows: DecisionRow[]): Promise<DecisionView[]> {
  const cast = await readBallots(
    db,
    rows.map((r) => r.id),
  );
  const people = [...new Set(rows.flatMap((r) => [r.openedBy, r.resolvedBy]).filter((id): id is string => id !== null))];
  const names = new Map(
    people.length ? (await db.select({ id: principals.id, name: principals.name }).from(principals).where(inArray(principals.id, people))).map((p) => [p.id, p.name]) : [],
  );
  return rows.map((row) => {
    const mine = cast.filter((b) => b.decisionId === row.id);
    return {
      id: row.id,
      number: row.number,
      question: row.question,
      options: row.options,
      defaultOption: row.defaultOption,
      consequence: row.consequence,
      quorum: row.quorum,
      status: row.status,
      outcome: row.outcome,
      timeboxAt: row.timeboxAt.toISOString(),
      escalationTimeboxSeconds: row.escalationTimeboxSeconds,
      escalatedAt: iso(row.escalatedAt),
      escalationDeadline: iso(row.escalationDeadline),
      envelope: row.envelope,
      openedBy: row.openedBy,
      openedByName: names.get(row.openedBy) ?? "?",
      resolvedBy: row.resolvedBy,
      resolvedByName: row.resolvedBy ? (names.get(row.resolvedBy) ?? "?") : null,
      decidedAt: iso(row.decidedAt),
      createdAt: row.createdAt.toISOString(),
      tally: tallyOf(row.options, mine),
      ballots: mine,
    };
  });
}

/** Reads and row-locks one decision; an unknown or malformed id is a 404. */
export async function lockDecision(db: Executor, id: string): Promise<DecisionRow> {
  if (!isUuid(id)) throw fail.notFound("decision", `no decision with id '${id}'`);
  const [row] = await db.select().from(decisions).where(eq(decisions.id, id)).for("update");
  if (!row) throw fail.notFound("decision", `no decision with id '${id}'`);
  return row;
}

export async function readDecisionView(db: Executor, id: string): Promise<DecisionView> {
  if (!isUuid(id)) throw fail.notFound("decision", `no decision with id '${id}'`);
  const [row] = await db.select().from(decisions).where(eq(decisions.id, id));
  if (!row) throw fail.notFound("decision", `no decision with id '${id}'`);
  return (await toDecisionViews(db, [row]))[0];
}
