// Decisions put to a vote and the ballots cast on them, as the decisions routes answer them.
import { z } from "zod";
import type { DecisionView } from "@/domain/decisions/decision-view";
import { open, uuid, when, int } from "./base";

const tally = open({ option: z.string(), count: int });
export const decision = open({
  id: uuid,
  number: int,
  question: z.string(),
  options: z.array(z.string()),
  defaultOption: z.string(),
  consequence: z.string(),
  quorum: int,
  status: z.string(),
  outcome: z.string().nullable(),
  timeboxAt: when,
  tally: z.array(tally),
  ballots: z.array(open({ id: uuid, voterId: uuid, option: z.string(), reasoning: z.string(), castAt: when })),
}) satisfies z.ZodType<Pick<DecisionView, "id" | "number" | "question" | "options" | "outcome" | "timeboxAt" | "quorum">>;
export const ballot = open({ id: uuid, option: z.string(), decision });
