// The decision board's refusals, shared by every state change.
import { fail } from "../errors";
import type { Principal } from "../principal";
import type { DecisionRow } from "./decision-view";

export function requireStatus(decision: DecisionRow, allowed: DecisionRow["status"][], action: string): void {
  if (allowed.includes(decision.status)) return;
  throw fail.conflict("decision", "wrong_status", `cannot ${action} D-${decision.number}: it is ${decision.status}, not ${allowed.join(" or ")}`, {
    status: decision.status,
  });
}

/**
 * A deadline is a deadline: past it, the outcome is the sweeper's (escalation or the default) even if
 * the sweeper has not run yet, so the result never depends on how late the sweeper is.
 */
export function requireBefore(deadline: Date, now: Date, decision: DecisionRow, what: string): void {
  if (now.getTime() < deadline.getTime()) return;
  throw fail.conflict("decision", "timebox_expired", `the ${what} of D-${decision.number} passed at ${deadline.toISOString()}`, {
    status: decision.status,
    deadline: deadline.toISOString(),
  });
}

/** An option that is not on the ballot is invalid input, reported like a zod issue on `option`. */
export function requireOption(decision: DecisionRow, option: string): void {
  if (decision.options.includes(option)) return;
  const message = `'${option}' is not an option of D-${decision.number}; choose one of: ${decision.options.join(", ")}`;
  throw fail.invalid("decision", message, { issues: [{ code: "invalid_value", path: ["option"], message, values: decision.options }] });
}

export function requireParticipant(caller: Principal): void {
  if (caller.kind === "system") throw fail.forbidden("decision", "the system principal does not take part in decisions");
}

export function requireHuman(caller: Principal, action: string): void {
  if (caller.kind !== "human") throw fail.forbidden("decision", `only humans ${action}`);
}
