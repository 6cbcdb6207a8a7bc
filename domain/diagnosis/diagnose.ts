// diagnose(events): the MAST failure modes a journal shows, one finding per instance, nothing for a clean
// journal. Pure: the same events (and names) always give the same findings, in the order they first showed.
import type { EventKind } from "../journal/kinds";
import type { JournalRecord } from "../journal/load";
import type { Finding } from "./finding";
import { factsOf, type KnownNames } from "./journal-facts";
import { misalignmentFailures } from "./misalignment";
import { specificationFailures } from "./specification";
import { verificationFailures } from "./verification";

export type { Finding } from "./finding";

/** The kinds the detectors read: a scope loads only these (a model's responses and the debits are most of a journal's bytes). */
export const DIAGNOSED_KINDS = [
  "RunStarted",
  "ModelCalled",
  "ToolDispatched",
  "ToolRetried",
  "ToolReturned",
  "AgentFinished",
  "RunStopped",
  "BudgetExhausted",
  "MessageSent",
  "GateRejected",
  "TaskCreated",
  "TaskClaimed",
  "LeaseExpired",
  "TaskSubmitted",
  "TaskReviewed",
  "TaskIntegrated",
  "SuiteStarted",
  "SuiteRan",
  "ReplyReasked",
  "ReplyEscalated",
  "ReworkAbandoned",
  "ReservationGranted",
] as const satisfies readonly EventKind[];

export function diagnose(events: readonly JournalRecord[], names: KnownNames = {}): Finding[] {
  const facts = factsOf(
    // The monitor's own findings are about the journal, not in it.
    events.filter((e) => e.kind !== "DiagnosisFound"),
    names,
  );
  const anchorOf = (f: Finding) => Number(f.key.slice(f.key.indexOf(":") + 1));
  return [...specificationFailures(facts), ...misalignmentFailures(facts), ...verificationFailures(facts)].sort(
    (a, b) => anchorOf(a) - anchorOf(b) || a.mode.localeCompare(b.mode),
  );
}
