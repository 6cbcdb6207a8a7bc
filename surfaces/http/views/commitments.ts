// Commitments (who promised what, by when) and the graph of what blocks what, as the commitments
// routes answer them.
import { z } from "zod";
import type { CommitmentView } from "@/domain/commitments/commitment-view";
import { open, uuid, when, int } from "./base";

const commitmentRef = open({ id: uuid, number: int, what: z.string(), status: z.string() });
export const commitment = open({
  id: uuid,
  number: int,
  ownerId: uuid,
  ownerName: z.string(),
  what: z.string(),
  taskId: uuid.nullable(),
  dueAt: when.nullable(),
  status: z.string(),
  overdue: z.boolean(),
  blockers: z.array(commitmentRef),
  blocking: z.array(commitmentRef),
}) satisfies z.ZodType<Pick<CommitmentView, "id" | "number" | "what" | "dueAt" | "overdue" | "taskId">>;
export const commitmentGraph = open({ nodes: z.array(open({ id: uuid })), edges: z.array(open({})), criticalPath: z.array(uuid) });
