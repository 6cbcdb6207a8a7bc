// What the room is told about a decision: the four-line escalation envelope and the outcome notices.
import { oneLine as cappedLine, quoted } from "../quoted-text";
import type { DecisionRow, TallyEntry } from "./decision-view";
import { utcMinute } from "../utc-minute";

/** Each envelope line is one line, whatever the author typed (the envelope's own four lines are its frame); the fields' own caps bound it. */
const oneLine = (text: string) => cappedLine(text, Number.POSITIVE_INFINITY);

export function formatTally(tally: TallyEntry[], quorum: number): string {
  const cast = tally.reduce((sum, t) => sum + t.count, 0);
  return `${tally.map((t) => `${oneLine(t.option)} ${t.count}`).join(" · ")} (${cast} of ${quorum} ballots)`;
}

/**
 * The fixed four lines a human reads to decide: what to decide · the tally · the default option ·
 * the consequence of missing the deadline (with the deadline itself).
 */
export function formatEnvelope(decision: Pick<DecisionRow, "question" | "defaultOption" | "consequence" | "quorum">, tally: TallyEntry[], deadline: Date): string {
  return [
    `Decide: ${oneLine(decision.question)}`,
    `Tally: ${formatTally(tally, decision.quorum)}`,
    `Default: ${oneLine(decision.defaultOption)}`,
    `If nobody decides by ${utcMinute(deadline)}: ${oneLine(decision.consequence)}`,
  ].join("\n");
}

/** The room message announcing a decision's current outcome (its envelope when escalated). */
export function announcementOf(decision: DecisionRow, resolverName: string | null): string {
  const label = `D-${decision.number}`;
  const question = quoted(decision.question, 300);
  const outcome = decision.outcome === null ? "" : quoted(decision.outcome, 80);
  switch (decision.status) {
    case "escalated":
      return decision.envelope ?? `${label} is escalated: ${question}`;
    case "closed":
      return `${label} decided by ballot: ${outcome} — ${question}`;
    case "resolved":
      return `${label} decided by ${resolverName ?? "a human"}: ${outcome} — ${question}`;
    case "defaulted":
      return `${label} default adopted: ${outcome} — nobody decided by ${utcMinute(decision.escalationDeadline!)}. ${question}`;
    default:
      return `${label} is open: ${question}`;
  }
}
