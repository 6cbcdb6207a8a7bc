// Shapes of the decision board as the browser receives them: the server's own view types (type-only).
export type { BallotView as Ballot, DecisionStatus, DecisionView as Decision } from "@/domain/decisions/decision-view";
export type { DecisionPage } from "@/domain/decisions/list-decisions";
