// A2A (v1.0) beside the REST routes: the JSON-RPC binding, and the agent card clients discover it by.
// The methods, their params and answers are A2A's own (a2a-protocol.org); the card's skills say how a message
// becomes a task on the board or a goal for the team, and how a task's state reads.
import { z } from "zod";
import { errorBody } from "../errors";
import { skillsOf } from "../skills";
import { type RouteSpec, TAGS, endpoint } from "./route-spec";

const METHODS = [
  "SendMessage",
  "SendStreamingMessage",
  "GetTask",
  "ListTasks",
  "CancelTask",
  "SubscribeToTask",
  "CreateTaskPushNotificationConfig",
  "GetTaskPushNotificationConfig",
  "ListTaskPushNotificationConfigs",
  "DeleteTaskPushNotificationConfig",
] as const;

export const A2A_ROUTES: RouteSpec[] = [
  endpoint({
    method: "post",
    path: "/api/a2a",
    tag: TAGS.surfaces,
    summary: "A2A v1.0 over JSON-RPC (a bearer key per request; send `A2A-Version: 1.0`)",
    description:
      `One JSON-RPC 2.0 request: ${METHODS.join(", ")}. SendStreamingMessage and SubscribeToTask answer Server-Sent Events, each a JSON-RPC response ` +
      "(the task first, then its status updates), until the task waits for its approver (INPUT_REQUIRED) or ends. A refusal is a JSON-RPC error: A2A's code " +
      "where A2A has one (-32602 a bad parameter, -32001 no such task, -32002 past cancelling, -32004 unsupported, -32009 a version other than 1.0), " +
      "else -31000 less REST's status (-31403, -31409, -31429); its data holds REST's body as a google.rpc.ErrorInfo of domain `quorum`. A refusal before " +
      "the JSON-RPC runs (no key, another site's page, a body over 1 MiB) is such an error with REST's HTTP status. docs/API.md, Bring your own agent, has the states.",
    access: "bearer",
    body: z.looseObject({ jsonrpc: z.literal("2.0"), id: z.union([z.string(), z.number(), z.null()]).optional(), method: z.enum(METHODS), params: z.looseObject({}) }),
    answers: [
      {
        status: 200,
        description: "A JSON-RPC response (its result, or an error); the streaming methods' events are such responses too",
        schema: z.looseObject({ jsonrpc: z.literal("2.0") }),
      },
    ],
    refusals: [403],
    // Loaded on the first call, as MCP is: a process that never serves A2A does not pay for its binding.
    // Its skills are derived from the endpoints a message can become (POST /api/tasks, POST /api/flights).
    run: async ({ ctx, request, routes }) => (await import("@/surfaces/a2a/http")).handleA2APost(request, ctx, skillsOf(routes)),
  }),
  endpoint({
    method: "get",
    path: "/api/a2a",
    tag: TAGS.surfaces,
    summary: "Not served: A2A's JSON-RPC is POSTed (405)",
    access: "public",
    answers: [{ status: 405, description: "Method not allowed", schema: z.looseObject({ jsonrpc: z.literal("2.0"), error: z.looseObject({ code: z.number() }) }) }],
    refusals: [],
    run: async () => (await import("@/surfaces/a2a/http")).a2aNotAllowed(),
  }),
  endpoint({
    method: "get",
    path: "/.well-known/agent-card.json",
    tag: TAGS.surfaces,
    summary: "A2A's agent card: the JSON-RPC interface (at QUORUM_URL), the bearer key it takes, the board's and the team's skills (public)",
    access: "public",
    answers: [
      {
        status: 200,
        description: "The card (A2A v1.0, proto JSON)",
        schema: z.looseObject({
          name: z.string(),
          supportedInterfaces: z.array(z.looseObject({ url: z.string(), protocolBinding: z.string(), protocolVersion: z.string() })),
          skills: z.array(z.looseObject({ id: z.string(), name: z.string(), description: z.string() })),
          securitySchemes: z.looseObject({}),
        }),
      },
      { status: 500, description: "The card could not be read (the database is away)", schema: errorBody },
    ],
    refusals: [],
  }),
];
