// An outside agent (Claude Code, Codex, anything with a key) reports what one of its model calls spent, so the
// Bill shows its tokens beside the built-in team's. Quorum cannot measure those calls: the event says it was
// self-reported, the Bill marks the line so, and no budget is debited (budgets bound Quorum's own runs).
import { z } from "zod";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { textField } from "../tasks/text";
import { readTaskView } from "../tasks/view";

/** No single model call reads or writes this many tokens; a larger figure is a mistake, not a call. */
export const MAX_REPORTED_TOKENS = 10_000_000;

const tokenCount = z.number().int().min(0).max(MAX_REPORTED_TOKENS);

export const reportUsageInput = z
  .strictObject({
    /** The model's name as its vendor spells it (`claude-sonnet-4-5`, `gpt-5`): the Bill prices it by this name. */
    model: textField(200, "name the model the call used"),
    inputTokens: tokenCount,
    outputTokens: tokenCount,
    /** The part of the input read from the prompt cache. */
    cachedTokens: tokenCount.optional(),
    /** The task the call worked on, when there is one: its line on the Bill counts it. */
    taskId: z.uuid().optional(),
  })
  .refine((u) => (u.cachedTokens ?? 0) <= u.inputTokens, { message: "cachedTokens are part of inputTokens: at most as many", path: ["cachedTokens"] });
export type ReportUsageInput = z.infer<typeof reportUsageInput>;

export interface ReportedUsage {
  eventId: number;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  /** input + output, what the Bill adds to the agent's line. */
  tokens: number;
  taskId: string | null;
  selfReported: true;
  reportedAt: string;
}

export async function reportUsage(db: Db, caller: Principal, input: ReportUsageInput, clock: Clock): Promise<ReportedUsage> {
  if (caller.kind !== "agent") throw fail.forbidden("usage", "only agents report the usage of their own model calls");
  const now = clock.now();
  const cachedTokens = input.cachedTokens ?? 0;
  const amount = input.inputTokens + input.outputTokens;
  return db.transaction(async (tx) => {
    const taskId = input.taskId ? (await readTaskView(tx, input.taskId)).id : null;
    const event = await appendEvent(tx, {
      kind: "UsageReported",
      actor: caller.id,
      taskId,
      t: now,
      data: { model: input.model, amount, inputTokens: input.inputTokens, outputTokens: input.outputTokens, cachedTokens, selfReported: true },
    });
    return {
      eventId: event.id,
      model: input.model,
      inputTokens: input.inputTokens,
      outputTokens: input.outputTokens,
      cachedTokens,
      tokens: amount,
      taskId,
      selfReported: true,
      reportedAt: now.toISOString(),
    };
  });
}
