// The ledger's refusals, shared by every state change.
import { fail } from "../errors";
import type { Principal } from "../principal";
import type { CommitmentRow } from "./commitment-view";

export function requireStatus(commitment: CommitmentRow, allowed: CommitmentRow["status"][], action: string): void {
  if (allowed.includes(commitment.status)) return;
  throw fail.conflict("commitment", "wrong_status", `cannot ${action} C-${commitment.number}: it is ${commitment.status}, not ${allowed.join(" or ")}`, {
    status: commitment.status,
  });
}

/** Nobody speaks for someone else: only the owner confirms, fulfils or withdraws a promise. */
export function requireOwner(commitment: CommitmentRow, caller: Principal, action: string): void {
  if (commitment.ownerId !== caller.id) throw fail.forbidden("commitment", `only the owner of C-${commitment.number} may ${action} it`);
}

export function requireParticipant(caller: Principal): void {
  if (caller.kind === "system") throw fail.forbidden("commitment", "the system principal makes no commitments");
}
