// Fuzzing every POST endpoint (issue 9): bodies derived from a valid one, then mutated — wrong types, missing
// fields, huge strings, unicode, numbers out of range, malformed JSON, wrong content types, bad path params.
// Never a 5xx; every refusal is a 4xx with a clear { error, message } body; a refused request writes nothing
// (new journal events attributed to the lane's principals; a gate refusal of a post may add only GateRejected).
// FUZZ_N sets the requests per endpoint (100 here; `npm run chaos` runs 1,000); FUZZ_SEED replays a run.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { discoverEndpoints, makeTeam, send, setups, type Endpoint, type Reply, type Setup, type Team, type Who } from "./api-catalog";

const N = Number(process.env.FUZZ_N ?? 100);
const SEED = Number(process.env.FUZZ_SEED ?? 0x9e3779b9);
const LANES = 4;

/** mulberry32: small, seedable, good enough to pick mutations. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rnd = () => number;
const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];

const WRONG_TYPES: unknown[] = [123, -1, 0, true, false, null, [], {}, "text", [1, "2"], { nested: { deeper: true } }, 1.5];
const NUMBERS: unknown[] = [-1, 0, -0.5, 1.5, 2 ** 31, 2 ** 53, 2 ** 63, -(2 ** 63), 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, "12", "NaN"];
const UNICODE: string[] = [
  "\u0000",
  "nul\u0000inside",
  "😀".repeat(3000),
  "\u202eevil rtl",
  "\ud800 lone surrogate",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "a\u0301\u0301\u0301",
  "𝕳𝖊𝖑𝖑𝖔",
  "\r\n\t",
  " ",
  "",
  "日本語のテキスト",
  `@everyone @${"x".repeat(64)}`,
];
const PARAMS: string[] = [
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "../../etc/passwd",
  "' or 1=1 --",
  "x".repeat(5000),
  "%00",
  "😀",
  "-1",
  "99999999999999999999",
  crypto.randomUUID(),
];
const CONTENT_TYPES: (string | null)[] = [
  null,
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/json; charset=latin1",
  "APPLICATION/JSON",
];

interface Mutant {
  what: string;
  body: unknown;
  raw: boolean;
  contentType?: string | null;
  params: Record<string, string>;
}

function deep(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** One to three mutations of a valid request. */
function mutate(rnd: Rnd, valid: Setup): Mutant {
  let body: unknown = structuredClone(valid.body ?? {});
  let raw = false;
  let contentType: string | null | undefined;
  const params = { ...valid.params };
  const what: string[] = [];
  const count = 1 + Math.floor(rnd() * 3);
  for (let m = 0; m < count; m++) {
    const obj = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
    const keys = obj ? Object.keys(obj) : [];
    const field = keys.length ? pick(rnd, keys) : "field";
    switch (Math.floor(rnd() * 11)) {
      case 0:
        if (obj && keys.length) delete obj[field];
        what.push(`drop ${field}`);
        break;
      case 1:
        if (obj) obj[field] = pick(rnd, WRONG_TYPES);
        what.push(`wrong type ${field}`);
        break;
      case 2:
        if (obj) obj[field] = "x".repeat(1_000 + Math.floor(rnd() * 300_000));
        what.push(`huge ${field}`);
        break;
      case 3:
        if (obj) obj[field] = pick(rnd, UNICODE);
        what.push(`unicode ${field}`);
        break;
      case 4:
        if (obj) obj[field] = pick(rnd, NUMBERS);
        what.push(`number ${field}`);
        break;
      case 5:
        if (obj) obj[pick(rnd, ["extra", "__proto__", "constructor", "id", "ownerId", "senderId", "fence"])] = pick(rnd, WRONG_TYPES);
        what.push("extra field");
        break;
      case 6:
        body = pick(rnd, [[], 42, "string", null, true, [body], deep(2_000)]);
        what.push("top-level type");
        break;
      case 7: {
        const text = raw ? String(body) : (JSON.stringify(body) ?? "");
        body = pick(rnd, [
          text.slice(0, Math.max(1, Math.floor(text.length / 2))),
          `${text},`,
          "{",
          "{'a':1}",
          "\u0000",
          "[1,2",
          `${text}}}`,
          "nul\u0000l",
          '{"a":"\\ud800"}',
          "\ufeff{}",
        ]);
        raw = true;
        what.push("malformed JSON");
        break;
      }
      case 8:
        contentType = pick(rnd, CONTENT_TYPES);
        what.push(`content-type ${contentType}`);
        break;
      case 9: {
        const names = Object.keys(params);
        if (names.length) {
          const name = pick(rnd, names);
          params[name] = pick(rnd, PARAMS);
          what.push(`param ${name}`);
        } else what.push("no params");
        break;
      }
      default:
        if (obj) obj[field] = pick(rnd, [deep(500), Array.from({ length: 10_000 }, (_, i) => i), { [field]: obj[field] }]);
        what.push(`nested ${field}`);
    }
  }
  return { what: what.join(" + "), body, raw, contentType, params };
}

function clearError(body: unknown): boolean {
  const b = body as { error?: unknown; message?: unknown } | undefined;
  if (typeof b?.error === "string" && typeof b?.message === "string" && b.message.length > 0) return true;
  // MCP answers JSON-RPC errors: { jsonrpc, error: { code, message } }.
  const rpc = b?.error as { message?: unknown } | undefined;
  return typeof rpc?.message === "string";
}

/** Who can succeed at the endpoint (so the fuzz reaches past authorization): agent, else human. */
const HUMAN_ONLY = new Set([
  "POST /api/forges",
  "POST /api/forges/[id]/webhook-secret",
  "POST /api/flight-proposals/[id]/start",
  "POST /api/flight-proposals/[id]/dismiss",
  "POST /api/agents",
  "POST /api/agents/[id]/keys",
  "POST /api/session/sign-out",
  "POST /api/rooms",
  "POST /api/principles",
  "POST /api/principles/[id]/pin",
  "POST /api/principles/[id]/unpin",
  "POST /api/reservations/[id]/force-release",
  "POST /api/decisions/[id]/resolve",
  "POST /api/tasks/[id]/review",
  "POST /api/tasks/[id]/reopen",
  "POST /api/tasks/[id]/cancel",
]);

let endpoints: Endpoint[];

beforeAll(async () => {
  endpoints = (await discoverEndpoints()).filter((e) => e.method === "POST");
});

async function fuzzEndpoint(endpoint: Endpoint, seed: number) {
  const team: Team = await makeTeam();
  const setup = setups(team, new Map((await discoverEndpoints()).map((e) => [e.key, e])))[endpoint.key];
  const ids = [team.agent.id, team.other.id, team.human.id];
  const who: Who = HUMAN_ONLY.has(endpoint.key) ? "human" : "agent";
  const rnd = prng(seed);
  const problems: string[] = [];
  const tally = { sent: 0, accepted: 0, refused: 0 };
  let valid = await setup();
  const db = getDb();
  for (let i = 0; i < N; i++) {
    const mutant = mutate(rnd, valid);
    const [{ before }] = await db.execute<{ before: number }>(sql`select coalesce(max(id), 0)::int as before from events`);
    let reply: Reply;
    try {
      reply = await send(team, endpoint, { who, params: mutant.params, body: mutant.body, raw: mutant.raw, contentType: mutant.contentType, cookie: valid.cookie });
    } catch (error) {
      problems.push(`#${i} ${mutant.what}: threw ${String(error).slice(0, 200)}`);
      continue;
    }
    tally.sent++;
    if (reply.status >= 500) problems.push(`#${i} ${mutant.what}: ${reply.status} ${JSON.stringify(reply.body)?.slice(0, 200)}`);
    else if (reply.status >= 400) {
      tally.refused++;
      if (!clearError(reply.body)) problems.push(`#${i} ${mutant.what}: ${reply.status} without a clear error: ${JSON.stringify(reply.body)?.slice(0, 200)}`);
      const written = await db.execute<{ kind: string }>(
        sql`select kind from events where id > ${before} and actor in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      );
      const illicit = written.filter((e) => e.kind !== "GateRejected");
      if (illicit.length) problems.push(`#${i} ${mutant.what}: refused with ${reply.status} but wrote ${illicit.map((e) => e.kind).join(", ")}`);
    } else {
      tally.accepted++;
      valid = await setup(); // it changed something: start the next mutation from a fresh resource
    }
  }
  return { problems, tally };
}

describe(`fuzzing every POST endpoint (${N} requests each, seed ${SEED})`, () => {
  it(
    "never answers 5xx, always explains a refusal, and a refusal writes nothing",
    async () => {
      const queue = [...endpoints];
      const report: Record<string, { sent: number; accepted: number; refused: number; problems: number }> = {};
      const problems: string[] = [];
      await Promise.all(
        Array.from({ length: LANES }, async () => {
          for (let e = queue.shift(); e; e = queue.shift()) {
            const seed = SEED ^ [...e.key].reduce((h, c) => Math.imul(h, 31) + c.charCodeAt(0), 7);
            const result = await fuzzEndpoint(e, seed);
            report[e.key] = { ...result.tally, problems: result.problems.length };
            problems.push(...result.problems.slice(0, 5).map((p) => `${e.key} ${p}`));
          }
        }),
      );
      if (process.env.FUZZ_REPORT) console.log(JSON.stringify({ fuzz: report }));
      expect(Object.keys(report).length).toBe(endpoints.length);
      expect(problems).toEqual([]);
    },
    Math.max(120_000, N * 2_000),
  );
});
