// done: the loop's own verb. Finishing is a typed act with a summary and its evidence, never inferred from prose.
import { z } from "zod";
import type { ToolSpec } from "../../domain/runs/run-events";
import { parametersSchema } from "./tool";

export const DONE = "done";

export const doneArguments = z.object({
  summary: z.string().trim().min(1).describe("what was done, in a sentence or two"),
  evidence: z.array(z.string()).default([]).describe("what shows it is done: test output, a diff, file paths"),
});

export const doneSpec: ToolSpec = {
  name: DONE,
  description: "Finish the task. Call it once the work is done, with a summary and the evidence that shows it.",
  parameters: parametersSchema(doneArguments),
  idempotent: true,
};
