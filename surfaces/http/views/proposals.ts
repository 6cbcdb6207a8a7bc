// A flight proposed from an issue a forge labelled for the team, as a human decides it.
import { z } from "zod";
import type { ProposalView } from "@/domain/flights/proposals";
import { int, open, uuid, when } from "./base";

export const flightProposal = open({
  id: uuid,
  host: z.string(),
  remote: z.string().describe("the repository's https URL, where its flight starts"),
  repository: z.string().describe("owner/repo"),
  issueNumber: int,
  issueUrl: z.string(),
  title: z.string(),
  goal: z.string().describe("the issue's title and body, as the goal a human starts from"),
  state: z.enum(["waiting", "started", "dismissed"]),
  flightId: uuid.nullable(),
  createdAt: when,
}) satisfies z.ZodType<ProposalView>;
