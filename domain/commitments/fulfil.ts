// The owner marks a confirmed commitment fulfilled, saying how (the evidence, in a sentence or a link).
import { z } from "zod";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import type { Principal } from "../principal";
import type { CommitmentView } from "./commitment-view";
import { transitionCommitment } from "./transition";

export const fulfilCommitmentInput = z.strictObject({
  reason: z.string().trim().min(1, "say how it was fulfilled").max(2000),
});
export type FulfilCommitmentInput = z.infer<typeof fulfilCommitmentInput>;

export function fulfilCommitment(db: Db, caller: Principal, commitmentId: string, input: FulfilCommitmentInput, clock: Clock): Promise<CommitmentView> {
  return transitionCommitment(db, caller, commitmentId, { action: "fulfil", from: ["confirmed"], to: "fulfilled", kind: "CommitmentFulfilled" }, input.reason, clock);
}
