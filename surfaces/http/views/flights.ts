// Flights: a flight with its plan and budgets, the list of them, the inspection of a repository
// before one starts, and an agent's allowance for flights.
import { z } from "zod";
import type { FlightAllowanceView } from "@/domain/flights/agent-allowance";
import type { RepositoryInspection } from "@/domain/flights/inspect";
import { FLIGHT_STAGES } from "@/domain/flights/stage";
import type { FlightList, FlightView } from "@/domain/flights/view";
import { open, uuid, when, int } from "./base";
import { budgetLine } from "./bill";

export const flightAllowance = open({ agentId: uuid, tokens: int, committed: int, left: int }) satisfies z.ZodType<FlightAllowanceView>;

const taskStatus = z.enum(["ready", "in_progress", "review", "done", "cancelled"]);
export const flight = open({
  id: uuid,
  number: int,
  goal: z.string(),
  status: z.enum(["planning", "working", "green", "red"]),
  stage: z.enum(FLIGHT_STAGES),
  stageWords: z.string(),
  finished: z.boolean().describe("merged or closed: nothing more happens to it"),
  mode: z.string(),
  source: z.string().nullable(),
  remote: z.string().nullable(),
  pullRequest: open({
    number: int,
    url: z.string(),
    draft: z.boolean().describe("opened as a draft before its goal was accepted, not marked ready yet"),
    checkedAt: when.nullable().describe("when the hub last read it from the forge"),
    checks: z.array(open({ name: z.string(), status: z.string(), conclusion: z.string().nullable(), url: z.string().nullable(), state: z.enum(["passed", "failed", "pending"]) })),
    cameBack: z
      .array(open({ kind: z.enum(["review", "check"]), task: open({ id: uuid, number: int, title: z.string(), status: taskStatus }), integrated: z.boolean() }))
      .describe("reviews asking changes and failed checks that became the flight's rework, with their tasks"),
  })
    .nullable()
    .describe("opened on the remote's forge once the goal was accepted"),
  forgeRefusal: open({ reason: z.string(), since: when })
    .nullable()
    .describe("what its forge refuses now (opening, marking ready or reading its pull request); the hub keeps trying"),
  issueNumber: int.nullable().describe("the forge issue it was proposed from; its pull request closes it when merged"),
  branch: z.string(),
  baseCommit: z.string().nullable(),
  baseBranch: z.string().nullable(),
  merged: open({ at: when, commit: z.string(), into: z.string() }).nullable(),
  closed: open({ at: when, reason: z.string() }).nullable(),
  testCommand: z.string().nullable(),
  setup: open({
    command: z.string(),
    source: z.string(),
    status: z.enum(["pending", "running", "done", "failed"]),
    line: z.string().nullable(),
    elapsedMs: int.nullable(),
    reused: z.boolean(),
    log: z.string().nullable(),
    at: when.nullable(),
  }).nullable(),
  mergeCommand: z.string().nullable(),
  goalTask: open({ id: uuid, number: int, title: z.string(), status: taskStatus }),
  tasks: z.array(
    open({
      id: uuid,
      number: int,
      title: z.string(),
      status: taskStatus,
      ownerName: z.string().nullable(),
      dependsOn: z.array(int),
      integrated: z.boolean(),
      budget: budgetLine.nullable(),
    }),
  ),
  budget: budgetLine.nullable(),
  alerts: z.array(open({ key: z.string(), flightId: uuid, mode: z.string(), name: z.string(), sentence: z.string(), taskIds: z.array(uuid), eventId: int, since: when })),
  createdByName: z.string().nullable(),
  createdAt: when,
  updatedAt: when,
}) satisfies z.ZodType<FlightView>;
export const flightList = open({ items: z.array(flight), defaultAllowance: int }) satisfies z.ZodType<FlightList>;
export const repositoryInspection = open({
  path: z.string(),
  head: z.string(),
  branch: z.string().nullable(),
  remote: z.string().nullable().describe("the https URL, when `path` is the hub's clone of a remote repository"),
  testCommand: z.string().nullable(),
  setup: open({ command: z.string(), source: z.enum(["given", "file", "detected"]) }).nullable(),
}) satisfies z.ZodType<RepositoryInspection>;
