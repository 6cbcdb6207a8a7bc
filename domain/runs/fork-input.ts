// What a fork of a run is asked with (POST /api/journal/runs/:id/fork, `quorum replay RUN --until EVENT`): the
// last event to keep, and what carries the run on from there — a script in the scripted client's format
// (agents/model/scripted.ts; README has it), or the live model. Who may ask: humans, since a fork runs real
// tools (the sandboxed test command) on this machine.
import { z } from "zod";
import { fail } from "../errors";
import type { Principal } from "../principal";

const tokens = z.number().int().min(0).max(100_000_000);

/** One response of a script, as a file or a request carries it. */
export const scriptEntry = z.strictObject({
  text: z.string().max(100_000).optional(),
  toolCalls: z
    .array(z.strictObject({ name: z.string().min(1).max(64), arguments: z.unknown().optional(), id: z.string().min(1).max(200).optional() }))
    .max(32)
    .optional(),
  usage: z.strictObject({ inputTokens: tokens, outputTokens: tokens, cachedTokens: tokens.optional() }).optional(),
  error: z.string().min(1).max(2_000).optional(),
  model: z.string().min(1).max(200).optional(),
});

/** A script: the responses the continuation's model calls get, in order (the first answers the first call after the fork). */
export const forkScript = z.array(scriptEntry).min(1, "a script needs at least one response").max(200);
export type ForkScript = z.infer<typeof forkScript>;

export const forkRunInput = z
  .strictObject({
    /** The id of the last recorded event to keep: the run carries on from just after it. */
    until: z.number().int().min(1),
    script: forkScript.optional(),
    /** Carry it on with the model configured for the run's role instead of a script. */
    live: z.literal(true).optional(),
  })
  .refine((input) => (input.script === undefined) !== (input.live === undefined), { message: "give a script or live: true, not both", path: ["script"] });
export type ForkRunInput = z.infer<typeof forkRunInput>;

export function requireForker(caller: Principal): void {
  if (caller.kind !== "human") throw fail.forbidden("run", "only humans fork runs: a fork runs the run's tools (its tests among them) on this machine");
}
