// Shapes of the decision board as the browser receives them: the server's own view types (type-only).
import type { DecisionView } from "@/server/decisions/decision-view";
export type { BallotView as Ballot, DecisionView as Decision } from "@/server/decisions/decision-view";
export type { DecisionPage } from "@/server/decisions/list-decisions";
export type DecisionStatus = DecisionView["status"];
