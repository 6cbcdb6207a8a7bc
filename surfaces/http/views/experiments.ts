// Experiments (`quorum experiment`) and fork replay: the lines of a fork's answer and the saved
// experiment reports.
import { z } from "zod";
import { EXPERIMENT_NAMES, experimentReport } from "@/domain/experiments/report";
import type { SavedExperiments } from "@/domain/experiments/saved";
import type { ForkStep } from "@/domain/runs/fork-report";
import { open, int } from "./base";

const forkStep = open({ index: int, kind: z.string(), turn: int.nullable(), what: z.string(), tokens: int.nullable() }) satisfies z.ZodType<ForkStep>;
/** A line of a fork's answer: its progress, then its report (or why it stopped). */
export const forkLine = open({
  progress: z.string().optional(),
  report: open({
    runId: z.string(),
    until: open({ eventId: int, index: int, turn: int }),
    prefixIdentical: z.boolean(),
    workspace: z.string(),
    continuedWith: z.string(),
    original: z.array(forkStep),
    fork: z.array(forkStep),
    divergence: open({ index: int, original: forkStep.nullable(), fork: forkStep.nullable() }).nullable(),
    originalResult: open({ status: z.string() }).nullable(),
    forkResult: open({ status: z.string() }).nullable(),
    tokens: open({ original: int, fork: int }),
  }).optional(),
  error: open({ message: z.string() }).optional(),
});
export const savedExperiments = open({
  items: z.array(experimentReport.extend({ file: z.string() })),
  unreadable: z.array(z.string()),
  experiments: z.array(open({ name: z.enum(EXPERIMENT_NAMES), summary: z.string(), flags: z.string() })),
}) satisfies z.ZodType<SavedExperiments>;
