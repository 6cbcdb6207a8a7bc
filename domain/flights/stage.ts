// Where a flight is in its life, as people read it: the team's work (planning, working), the goal back with
// its human (handed back, in review), and its end (accepted, then merged or closed). A flight's `status`
// stays the suite's verdict; this is the one place the two, the goal and the human's last act combine.
import type { TaskStatus } from "../../db/schema";
import type { Flight } from "./launch";

export const FLIGHT_STAGES = ["planning", "working", "handed_back", "in_review", "accepted", "merged", "closed"] as const;
export type FlightStage = (typeof FLIGHT_STAGES)[number];

/** What each stage is called where people read it. */
export const STAGE_WORDS: Record<FlightStage, string> = {
  planning: "Planning",
  working: "Working",
  handed_back: "Back with you",
  in_review: "Waiting for your review",
  accepted: "Accepted, not merged yet",
  merged: "Merged",
  closed: "Closed",
};

/** The stages after which nothing more happens: the Board folds these flights away. */
export const FINISHED_STAGES: readonly FlightStage[] = ["merged", "closed"];

export function stageOf(flight: Pick<Flight, "status" | "mergedAt" | "closedAt">, goal: TaskStatus): FlightStage {
  if (flight.mergedAt) return "merged";
  if (flight.closedAt || goal === "cancelled") return "closed";
  if (goal === "done") return "accepted";
  if (goal === "review") return "in_review";
  if (flight.status === "red") return "handed_back";
  return flight.status === "planning" ? "planning" : "working";
}
