// The MAST monitor: the failure modes in the journal at one scope.
import { z } from "zod";
import { answerFinding, answerFindingInput } from "@/domain/diagnosis/answer";
import { diagnoseScope, diagnosisQuery } from "@/domain/diagnosis/scope";
import * as v from "../views";
import { when } from "../views/base";
import { ok, type RouteSpec, TAGS, endpoint } from "./route-spec";
import * as out from "@/surfaces/mcp/outputs";
import { READ } from "@/surfaces/mcp/tool";

export const DIAGNOSIS_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/diagnosis",
    tag: TAGS.journal,
    summary: "The MAST failure modes (FM-1.1 … FM-3.3) in a flight's, a run's or a task's journal, or in everything since an event or a moment",
    description:
      "Exactly one of `flight` (number or id), `run`, `task` (id or number) or `since` (an event id, or an ISO 8601 moment with its offset); 400 otherwise. " +
      "Each finding names its mode, category and severity (high: it landed — accepted, integrated or a red suite; medium: it cost work; low: absorbed), a sentence, and the ids of the events that show it. " +
      "Read as the caller may read the journal: an agent's diagnosis never rests on a direct message it is not party to. `since` reads at most 20,000 events (`truncated`, `through`).",
    access: "principal",
    query: diagnosisQuery,
    answers: ok(v.diagnosis),
    refusals: [404],
    tool: {
      name: "diagnose",
      description:
        "The MAST failure modes (FM-1.1 … FM-3.3) in the journal at one scope — exactly one of flight, run, task or since (an event id or ISO time): each with its severity, a sentence and its evidence event ids. Diagnose your own work before you submit it.",
      hints: READ,
      output: out.diagnosisOut,
    },
    run: async ({ ctx, caller, query }) => await diagnoseScope(ctx.db, caller, query),
  }),
  endpoint({
    method: "post",
    path: "/api/diagnosis/answers",
    tag: TAGS.journal,
    summary: "A human answers a finding: `acknowledged` (seen, with a note) or `not_a_failure`; journalled, and it leaves what waits for you",
    description:
      "`key` is the finding's key without its severity, as the desk and GET /api/diagnosis give it (`FM-3.2:1234`); 404 for no such finding. " +
      "A second answer replaces the first. Answers are journalled as FindingAnswered: the labelled examples the monitor is measured against.",
    access: "principal",
    body: answerFindingInput,
    answers: ok(
      z.looseObject({
        key: z.string(),
        flightId: z.uuid(),
        mode: z.string(),
        verdict: z.enum(["acknowledged", "not_a_failure"]),
        note: z.string().nullable(),
        answeredBy: z.uuid(),
        answeredAt: when,
      }),
    ),
    refusals: [403, 404],
    run: async ({ ctx, caller, body }) => await answerFinding(ctx.db, caller, body, ctx.clock),
  }),
];
