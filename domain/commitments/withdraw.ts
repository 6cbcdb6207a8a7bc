// The owner withdraws a candidate or confirmed commitment, saying why: no quiet burials.
import { z } from "zod";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import type { Principal } from "../principal";
import type { CommitmentView } from "./commitment-view";
import { transitionCommitment } from "./transition";

export const withdrawCommitmentInput = z.strictObject({
  reason: z.string().trim().min(1, "say why it is withdrawn").max(2000),
});
export type WithdrawCommitmentInput = z.infer<typeof withdrawCommitmentInput>;

export function withdrawCommitment(db: Db, caller: Principal, commitmentId: string, input: WithdrawCommitmentInput, clock: Clock): Promise<CommitmentView> {
  return transitionCommitment(
    db,
    caller,
    commitmentId,
    { action: "withdraw", from: ["candidate", "confirmed"], to: "withdrawn", kind: "CommitmentWithdrawn" },
    input.reason,
    clock,
  );
}
