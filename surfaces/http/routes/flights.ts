// The built-in team's flights: starting one on your repository, reading them, retrying a goal handed back,
// and how the team thinks.
import { readTeamStatus, type TeamStatus } from "@/domain/flights/team-status";
import { fail } from "@/domain/errors";
import { TASK_STATES } from "@/surfaces/a2a/skill";
import { startFlight } from "@/domain/flights/start";
import { listFlights, readFlight } from "@/domain/flights/view";
import { z } from "zod";
import { retryFlight, retryFlightInput } from "@/domain/flights/hand-back";
import { inspectForFlight, inspectRepositoryQuery } from "@/domain/flights/inspect";
import { startFlightInput } from "@/domain/flights/launch";
import { closeFlight, closeFlightInput, mergeFlight } from "@/domain/flights/end";
import * as v from "../views";
import { created, ok, type RouteSpec, TAGS, uuidId, endpoint } from "./route-spec";
import * as out from "@/surfaces/mcp/outputs";
import { WRITE } from "@/surfaces/mcp/tool";

/** The team skill's last words on the card: whether the team takes a goal now, and how it thinks. */
function teamNow(team: TeamStatus): string {
  if (!team.mode) return "No team worker has started yet, so the team takes no goal now.";
  if (team.mode === "scripted") return "The team runs scripted now (no model is configured): it flies only its demo, and refuses other goals.";
  return `The team now: ${team.roles.join(", ")}, thinking with ${team.mode}.`;
}

export const FLIGHT_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/flights",
    tag: TAGS.runs,
    summary: "The built-in team's flights, newest first: status, plan, tasks, spend and branch",
    access: "principal",
    answers: ok(v.flightList),
    refusals: [],
    run: async ({ ctx, caller }) => await listFlights(ctx.db, caller),
  }),
  endpoint({
    method: "post",
    path: "/api/flights",
    tag: TAGS.runs,
    summary:
      "Start a flight on your repository (humans): the team clones it, works each task on its own branch and integrates into `quorum/flight-<n>` there, never touching your checkout; the test command is detected when absent",
    access: "principal",
    body: startFlightInput,
    answers: created(v.flight),
    refusals: [403, 409],
    otherConflicts: ["no_team", "scripted_team"],
    tool: {
      name: "start_flight",
      description:
        "Ask the built-in team to fly a goal on a repository a human has already given it (repo: its folder on the team's machine); the goal waits for that human's review.",
      hints: WRITE,
      output: out.flightOut,
    },
    skill: {
      id: "team",
      name: "A goal for Quorum's built-in team (a flight)",
      description:
        'Say metadata {"skill": "team"}. The text is the goal; a data part names the repository: {"repo": "<its folder on the team\'s machine>"}, one a human ' +
        "has already given the team, and optionally testCommand and allowance (tokens, at most the default for an agent). The orchestrator plans it into tasks, " +
        "coders work them, the reviewer and the tester check them, and the goal waits for the review of the human who flew that repository. " +
        `${TASK_STATES} FAILED: the team handed the goal back to its human (the reason is the status message).`,
      now: teamNow,
      tags: ["flight", "team", "git", "coding"],
      examples: ['Make the failing date tests pass — with a data part {"repo": "/home/ada/src/app"}'],
      noun: "goal",
      body: ({ text, fields, contextId }) => {
        if (contextId) throw fail.invalid("request", "a flight's goal starts a context of its own: send it without a contextId");
        return { ...fields, goal: text };
      },
      task: (flight: { goalTask: { id: string } }) => flight.goalTask.id,
    },
    run: async ({ ctx, caller, body }) => await startFlight(ctx.db, caller, body, ctx.clock),
  }),
  endpoint({
    method: "get",
    path: "/api/flights/inspect",
    tag: TAGS.runs,
    summary:
      "What a flight on this repository would start from (humans): its top folder, HEAD, branch and the detected test command; an https URL is fetched into the hub's own clone first; 400 with the reason for a path that is no git repository with a commit, or a remote git cannot fetch",
    access: "principal",
    query: inspectRepositoryQuery,
    answers: ok(v.repositoryInspection),
    refusals: [403],
    run: async ({ ctx, caller, query }) => {
      const { repo } = query;
      return await inspectForFlight(ctx.db, caller, repo);
    },
  }),
  endpoint({
    method: "get",
    path: "/api/flights/{id}",
    tag: TAGS.runs,
    summary: "One flight, by id or number",
    access: "principal",
    params: z.strictObject({ id: z.string().min(1).max(64) }),
    answers: ok(v.flight),
    refusals: [404],
    run: async ({ ctx, caller, params }) => {
      const { id } = params;
      return await readFlight(ctx.db, id, caller);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/flights/{id}/retry",
    tag: TAGS.runs,
    summary: "Retry a goal handed back after its model failed, live or scripted (the goal's human)",
    access: "principal",
    params: uuidId,
    body: retryFlightInput,
    answers: ok(v.anyObject),
    refusals: [403, 404, 409],
    otherConflicts: ["not_handed_back", "no_team"],
    run: async ({ ctx, caller, params, body }) => {
      const { id } = params;
      return await retryFlight(ctx.db, caller, id, body, ctx.clock);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/flights/{id}/merge",
    tag: TAGS.runs,
    summary:
      "Merge an accepted flight (the goal's human): its reviewed branch goes into the branch the flight started from in your repository, by fast-forward or a merge commit, never by force; 409 merge_refused with git's reason when it would conflict or touch uncommitted work",
    access: "principal",
    params: uuidId,
    body: z.strictObject({}),
    answers: ok(v.flight),
    refusals: [403, 404, 409],
    otherConflicts: ["merge_refused", "not_accepted", "flight_ended"],
    run: async ({ ctx, caller, params }) => {
      await mergeFlight(ctx.db, caller, params.id, ctx.clock);
      return await readFlight(ctx.db, params.id, caller);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/flights/{id}/close",
    tag: TAGS.runs,
    summary:
      "Close a flight without merging (the goal's human), once its goal is back with you: an open goal is cancelled with an ADR of your reason; the branch stays where it is",
    access: "principal",
    params: uuidId,
    body: closeFlightInput,
    answers: ok(v.flight),
    refusals: [403, 404, 409],
    otherConflicts: ["still_flying", "flight_ended"],
    run: async ({ ctx, caller, params, body }) => {
      await closeFlight(ctx.db, caller, params.id, body, ctx.clock);
      return await readFlight(ctx.db, params.id, caller);
    },
  }),
  endpoint({
    method: "get",
    path: "/api/team",
    tag: TAGS.runs,
    summary: "How the built-in team thinks (scripted or a model)",
    access: "principal",
    answers: ok(v.anyObject),
    refusals: [],
    run: async ({ ctx }) => await readTeamStatus(ctx.db),
  }),
];
