// MCP tools of who is who, memory, news and spend: whoami, the roster, lessons and principles, the long-poll, a diagnosis, report_usage.
import { listLessons, listLessonsQuery, listPrinciples } from "../../../domain/memory/list-memory";
import { recordLesson, recordLessonInput } from "../../../domain/memory/record-lesson";
import { reportUsage, reportUsageInput } from "../../../domain/bill/report-usage";
import { startFlightInput } from "../../../domain/flights/launch";
import { startFlight } from "../../../domain/flights/start";
import { priceSettings } from "../../../domain/config";
import { listRoster } from "../../../domain/roster/roster";
import { waitForEvents, waitForEventsQuery } from "../../../domain/journal/wait-for-events";
import { diagnoseScope, diagnosisQuery } from "../../../domain/diagnosis/scope";
import { diagnosisOut, eventsOut, flightOut, lessonOut, page, principalOut, principleOut, rosterOut, usageOut } from "../outputs";
import { defineTool, READ, WRITE } from "../tool";

export const teamTools = [
  defineTool({
    name: "whoami",
    description: "Who this key acts as.",
    rest: "GET /api/me",
    output: principalOut,
    annotations: READ,
    run: async ({ caller }) => caller,
  }),
  defineTool({
    name: "list_agents",
    description: "The roster: agents and humans, roles, presence; agents with load and success rate.",
    rest: "GET /api/agents",
    output: page(rosterOut),
    annotations: READ,
    run: async ({ db, clock }) => ({ items: await listRoster(db, clock, priceSettings().prices) }),
  }),
  defineTool({
    name: "wait_for_events",
    description:
      "Wait up to timeoutSeconds (≤25) for journal news after `after` (omit: from now); returns at once if any. Pass `next` as `after` next time. forMe marks what concerns you. Never acks.",
    rest: "GET /api/events",
    input: waitForEventsQuery,
    output: eventsOut,
    annotations: READ,
    run: ({ db, caller, subscribe, signal }, _, query) => waitForEvents(db, caller, query, subscribe, signal),
  }),
  defineTool({
    name: "diagnose",
    description:
      "The MAST failure modes (FM-1.1 … FM-3.3) in the journal at one scope — exactly one of flight, run, task or since (an event id or ISO time): each with its severity, a sentence and its evidence event ids. Diagnose your own work before you submit it.",
    rest: "GET /api/diagnosis",
    input: diagnosisQuery,
    output: diagnosisOut,
    annotations: READ,
    run: ({ db, caller }, _, query) => diagnoseScope(db, caller, query),
  }),
  defineTool({
    name: "list_lessons",
    description: "Lessons learned from finished work, newest first.",
    rest: "GET /api/lessons",
    input: listLessonsQuery,
    output: page(lessonOut),
    annotations: READ,
    run: ({ db }, _, query) => listLessons(db, query),
  }),
  defineTool({
    name: "record_lesson",
    description: "Record a lesson from finished work; two independent sources promote it to a principle.",
    rest: "POST /api/lessons",
    input: recordLessonInput,
    output: lessonOut,
    annotations: WRITE,
    run: ({ db, caller, clock }, _, input) => recordLesson(db, caller, input, clock),
  }),
  defineTool({
    name: "list_principles",
    description: "Principles in force (promoted or pinned by a human).",
    rest: "GET /api/principles",
    output: page(principleOut),
    annotations: READ,
    run: ({ db }) => listPrinciples(db),
  }),
  defineTool({
    name: "report_usage",
    description: "After each model call you make, report its tokens (and taskId, if you work one): your spend joins the Bill, marked self-reported.",
    rest: "POST /api/usage",
    input: reportUsageInput,
    output: usageOut,
    annotations: WRITE,
    run: ({ db, caller, clock }, _, input) => reportUsage(db, caller, input, clock),
  }),
  defineTool({
    name: "start_flight",
    description:
      "Ask the built-in team to fly a goal on a repository a human has already given it (repo: its folder on the team's machine); the goal waits for that human's review.",
    rest: "POST /api/flights",
    input: startFlightInput,
    output: flightOut,
    annotations: WRITE,
    run: ({ db, caller, clock }, _, input) => startFlight(db, caller, input, clock),
  }),
];
