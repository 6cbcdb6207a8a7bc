// Issue 14 item 6: path parameters are input like bodies. Every dynamic route (found by walking app/api for
// `[param]` folders, so a new one cannot be forgotten), with every method, answers a NUL, a control
// character, a 10 KB segment or bytes that are not UTF-8 with a 4xx JSON refusal, never a 5xx, and writes nothing.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { pathIssues } from "../domain/request-shape";
import { discoverEndpoints, type Endpoint } from "./api-catalog";
import { makeAgent, makeHuman } from "./helpers";

/** A bad value, as it appears in the URL and as Next would hand it to the handler. */
interface Bad {
  what: string;
  encoded: string;
  decoded: string;
}

const BAD: Bad[] = [
  { what: "NUL inside", encoded: "a%00b", decoded: "a\u0000b" },
  { what: "NUL alone", encoded: "%00", decoded: "\u0000" },
  { what: "a control character", encoded: "bell%07", decoded: "bell\u0007" },
  { what: "a 10 KB segment", encoded: "x".repeat(10_000), decoded: "x".repeat(10_000) },
  // Next fails to decode these itself (proxy.ts answers first); a handler reached anyway must refuse too.
  { what: "an invalid UTF-8 byte", encoded: "%FF", decoded: "\ufffd" },
  { what: "an overlong encoding", encoded: "%C0%AF", decoded: "\ufffd\ufffd" },
];

let dynamic: Endpoint[];

beforeAll(async () => {
  dynamic = (await discoverEndpoints()).filter((e) => e.route.includes("["));
});

async function send(endpoint: Endpoint, bad: Bad, auth: Record<string, string>) {
  const params: Record<string, string> = {};
  const path = endpoint.route.replace(/\[(\w+)\]/g, (_, name: string) => {
    params[name] = bad.decoded;
    return bad.encoded;
  });
  const hasBody = endpoint.method !== "GET" && endpoint.method !== "DELETE";
  const req = new Request(`http://localhost${path}`, {
    method: endpoint.method,
    headers: { host: "localhost", ...(hasBody ? { "content-type": "application/json" } : {}), ...auth },
    body: hasBody ? JSON.stringify({ fence: 1, body: "hello", verdict: "accept", reason: "because", evidence: "new", seq: 1 }) : undefined,
  });
  const response = await endpoint.handler(req, { params: Promise.resolve(params) });
  const text = await response.text();
  let body: { error?: unknown; message?: unknown } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

describe("malformed path parameters", () => {
  it("finds the dynamic routes", () => {
    expect(dynamic.map((e) => e.route)).toEqual(expect.arrayContaining(["/api/tasks/[id]", "/api/rooms/[room]/messages", "/api/agents/[id]", "/api/decisions/[id]"]));
  });

  it("get a 4xx JSON refusal on every dynamic route and method, as an agent and as a human, and change nothing", async () => {
    const [agent, human] = [await makeAgent(), await makeHuman()];
    const [{ before }] = await getDb().execute<{ before: number }>(sql`select coalesce(max(id), 0)::int as before from events`);
    const problems: string[] = [];
    for (const endpoint of dynamic) {
      for (const bad of BAD) {
        const callers: Record<string, string>[] = [{ authorization: `Bearer ${agent.key}` }, { cookie: human.cookie }];
        for (const auth of callers) {
          const answer = await send(endpoint, bad, auth);
          const clear = typeof answer.body?.error === "string" && typeof answer.body?.message === "string";
          if (answer.status < 400 || answer.status >= 500 || !clear) problems.push(`${endpoint.key} with ${bad.what}: ${answer.status} ${answer.text.slice(0, 120)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    const [{ after }] = await getDb().execute<{ after: number }>(sql`select coalesce(max(id), 0)::int as after from events`);
    expect(after).toBe(before);
  });

  it("are told apart from good ones: the refusal names the segment, and a plain id or name passes", () => {
    expect(pathIssues("/api/rooms/a%00b/messages")).toEqual([{ code: "custom", path: ["path", 2], message: expect.stringContaining("control characters") }]);
    expect(pathIssues("/api/tasks/%FF")).toEqual([{ code: "custom", path: ["path", 2], message: expect.stringContaining("UTF-8") }]);
    expect(pathIssues(`/api/tasks/${"x".repeat(201)}`)[0].message).toContain("longer than 200");
    expect(pathIssues(`/api/tasks/${crypto.randomUUID()}/claim`)).toEqual([]);
    expect(pathIssues("/api/rooms/gen%65ral/messages")).toEqual([]);
    expect(pathIssues("/api/agents/%E6%97%A5%E6%9C%AC")).toEqual([]);
  });
});
