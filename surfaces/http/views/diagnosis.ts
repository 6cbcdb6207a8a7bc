// The MAST monitor's answers (domain/diagnosis/): findings of failure modes, and a diagnosis over a
// flight, a run, a task or a span of the journal.
import { z } from "zod";
import type { Finding } from "@/domain/diagnosis/finding";
import type { DiagnosisView } from "@/domain/diagnosis/scope";
import { open, uuid, int } from "./base";

export const finding = open({
  key: z.string(),
  mode: z.enum(["FM-1.1", "FM-1.2", "FM-1.3", "FM-1.4", "FM-1.5", "FM-2.1", "FM-2.2", "FM-2.3", "FM-2.4", "FM-2.5", "FM-2.6", "FM-3.1", "FM-3.2", "FM-3.3"]),
  name: z.string(),
  category: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  categoryName: z.string(),
  severity: z.enum(["low", "medium", "high"]),
  sentence: z.string(),
  eventIds: z.array(int),
  runIds: z.array(z.string()),
  taskIds: z.array(uuid),
  agents: z.array(uuid),
}) satisfies z.ZodType<Finding>;
export const diagnosis = open({
  scope: z.enum(["flight", "run", "task", "since"]),
  label: z.string(),
  events: int,
  truncated: z.boolean(),
  through: int.nullable(),
  findings: z.array(finding),
}) satisfies z.ZodType<DiagnosisView>;
