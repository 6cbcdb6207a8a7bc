// Only the owner confirms a candidate; from then on it is a node of the dependency graph.
import { z } from "zod";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import type { Principal } from "../principal";
import type { CommitmentView } from "./commitment-view";
import { transitionCommitment } from "./transition";

export const confirmCommitmentInput = z.strictObject({});

export function confirmCommitment(db: Db, caller: Principal, commitmentId: string, clock: Clock): Promise<CommitmentView> {
  return transitionCommitment(db, caller, commitmentId, { action: "confirm", from: ["candidate"], to: "confirmed", kind: "CommitmentConfirmed" }, null, clock);
}
