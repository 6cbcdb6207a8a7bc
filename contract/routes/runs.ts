// Quorum's own workers: stopping a run, funding a budget.
import { setAllowanceInput } from "@/server/budgets/set-allowance";
import { requestResumeInput } from "@/server/runs/request-resume";
import { requestStopInput } from "@/server/runs/request-stop";
import * as v from "../views";
import { uuidId, runId, ok, type RouteSpec, TAGS } from "./route-spec";

export const RUN_ROUTES: RouteSpec[] = [
  {
    method: "post",
    path: "/api/runs/{id}/stop",
    tag: TAGS.runs,
    summary: "Ask a run to stop at its next turn boundary (humans, or the run's own agent)",
    access: "principal",
    params: runId,
    body: requestStopInput,
    answers: [{ status: 202, description: "Asked", schema: v.anyObject }],
    refusals: [403, 404, 409],
    otherConflicts: ["run_finished"],
  },
  {
    method: "post",
    path: "/api/runs/{id}/resume",
    tag: TAGS.runs,
    summary: "Ask the team's worker to carry a halted or stopped run on from its journal (humans); a coder's resumed run submits its task",
    access: "principal",
    params: runId,
    body: requestResumeInput,
    answers: [{ status: 202, description: "Asked", schema: v.anyObject }],
    refusals: [403, 404, 409],
    otherConflicts: ["run_not_paused", "budget_exhausted", "task_moved_on"],
  },
  {
    method: "post",
    path: "/api/budgets/{id}/allowance",
    tag: TAGS.runs,
    summary: "Change a budget's allowance, in tokens; a top-up lets a halted run resume",
    access: "principal",
    params: uuidId,
    body: setAllowanceInput,
    answers: ok(v.anyObject),
    refusals: [403, 404, 409],
    otherConflicts: ["over_allocated", "under_children"],
  },
];
