// Quorum's own workers: stopping a run, funding a budget.
import { setAllowance, setAllowanceInput } from "@/domain/budgets/set-allowance";
import { requestResume, requestResumeInput } from "@/domain/runs/request-resume";
import { requestStop, requestStopInput } from "@/domain/runs/request-stop";
import * as v from "../views";
import { uuidId, runId, ok, type RouteSpec, TAGS, endpoint } from "./route-spec";

export const RUN_ROUTES: RouteSpec[] = [
  endpoint({
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
    run: async ({ ctx, caller, params, body }) => {
      const { id } = params;
      return await requestStop(ctx.db, caller, id, body, ctx.clock);
    },
  }),
  endpoint({
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
    run: async ({ ctx, caller, params, body }) => {
      const { id } = params;
      return await requestResume(ctx.db, caller, id, body, ctx.clock);
    },
  }),
  endpoint({
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
    run: async ({ ctx, caller, params, body }) => {
      const { id } = params;
      return await setAllowance(ctx.db, caller, id, body, ctx.clock);
    },
  }),
];
