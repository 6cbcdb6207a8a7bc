// Opens a vote: a question, its options and default, what missing the deadline costs, quorum and timeboxes.
import { z } from "zod";
import { decisions } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { toDecisionViews, type DecisionView } from "./decision-view";
import { requireParticipant } from "./guards";

const MAX_TIMEBOX_SECONDS = 30 * 24 * 60 * 60;

export const openDecisionInput = z
  .strictObject({
    question: z.string().trim().min(1, "a decision needs a question").max(500),
    options: z
      .array(z.string().trim().min(1, "an option cannot be empty").max(200))
      .min(2, "a decision needs at least two options")
      .max(10, "at most ten options")
      .refine((options) => new Set(options).size === options.length, "options must be distinct"),
    defaultOption: z.string().trim().min(1).max(200),
    consequence: z.string().trim().min(1, "say what happens if nobody decides").max(1000),
    quorum: z.int().min(1).max(1000),
    timeboxSeconds: z.int().min(1).max(MAX_TIMEBOX_SECONDS),
    escalationTimeboxSeconds: z.int().min(1).max(MAX_TIMEBOX_SECONDS),
  })
  .refine((input) => input.options.includes(input.defaultOption), {
    path: ["defaultOption"],
    message: "the default must be one of the options",
  });
export type OpenDecisionInput = z.infer<typeof openDecisionInput>;

export async function openDecision(db: Db, caller: Principal, input: OpenDecisionInput, clock: Clock): Promise<DecisionView> {
  requireParticipant(caller);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(decisions)
      .values({
        question: input.question,
        options: input.options,
        defaultOption: input.defaultOption,
        consequence: input.consequence,
        quorum: input.quorum,
        timeboxAt: new Date(now.getTime() + input.timeboxSeconds * 1000),
        escalationTimeboxSeconds: input.escalationTimeboxSeconds,
        openedBy: caller.id,
        createdAt: now,
      })
      .returning();
    await appendEvent(tx, {
      kind: "DecisionOpened",
      actor: caller.id,
      t: now,
      data: {
        decisionId: row.id,
        number: row.number,
        question: row.question,
        options: row.options,
        defaultOption: row.defaultOption,
        consequence: row.consequence,
        quorum: row.quorum,
        timeboxAt: row.timeboxAt.toISOString(),
        escalationTimeboxSeconds: row.escalationTimeboxSeconds,
      },
    });
    return (await toDecisionViews(tx, [row]))[0];
  });
}
