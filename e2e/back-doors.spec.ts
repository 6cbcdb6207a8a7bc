// Back doors: the attacks of issue 14, run against a real `quorum start` (embedded Postgres) the way a
// local process, a curious agent or a hostile web page would try them. Each test records whether the
// door held before it asserts, and the suite prints one line for `npm run chaos` to tally.
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { type Agent, expect, type ResponseBody, test, uniqueName } from "./fixtures";
import { probeEmbeddedDatabase } from "./probes/embedded-database";

interface Finding {
  attack: string;
  held: boolean;
  detail: string;
}
const findings: Record<string, Finding> = {};
test.afterAll(() => console.log(JSON.stringify({ backDoors: findings })));

/** Records what an attack met, then fails the test if the door was open. */
function door(id: string, attack: string, held: boolean, detail: string) {
  findings[id] = { attack, held, detail };
  expect(held, `${id}: ${attack} → ${detail}`).toBe(true);
}

interface Raw {
  status: number;
  text: string;
  headers: Headers;
}

/** Plain fetch: the attacker picks every header, body and path byte. */
async function raw(url: string, init: RequestInit & { key?: string } = {}): Promise<Raw> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("authorization", `Bearer ${init.key}`);
  const response = await fetch(url, { ...init, headers, redirect: "manual" });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

test.describe.configure({ mode: "serial" });

test("1 · the embedded database: no fixed password, no secrets in runtime.json, the app's role cannot touch the journal's trigger", async () => {
  const probe = await probeEmbeddedDatabase(process.env.QUORUM_E2E_HOME!);
  door(
    "1 embedded database",
    "connect as postgres/quorum; read runtime.json; as the app's role disable the journal trigger, rewrite an event, COPY TO PROGRAM",
    probe.held,
    probe.detail,
  );
});

test("2 · an agent never reads another pair's direct message, on any read path", async ({ baseURL, registerAgent }) => {
  const [a, b, c] = [await registerAgent(), await registerAgent(), await registerAgent()];
  const marker = `dm-secret-${randomBytes(4).toString("hex")}`;
  const sent = await raw(`${baseURL}/api/rooms/general/messages`, { ...json({ body: `for your eyes only ${marker}`, to: c.name }), key: a.key });
  expect(sent.status).toBe(201);
  const paths = [
    `/api/journal?q=${marker}`,
    "/api/journal?kind=MessageSent&limit=200",
    "/api/journal/export",
    "/api/events?after=0&timeoutSeconds=0",
    "/api/rooms/general/messages?limit=200",
    "/api/rooms/general/inbox",
  ];
  const leaks: string[] = [];
  for (const path of paths) {
    const seen = await raw(`${baseURL}${path}`, { key: b.key });
    if (seen.status >= 500) leaks.push(`${path} → ${seen.status}`);
    if (seen.text.includes(marker)) leaks.push(path);
  }
  if ((await sseText(baseURL, b.key)).includes(marker)) leaks.push("/api/stream (catch-up)");
  if ((await mcpCall(baseURL, b.key, "wait_for_events", { after: 0, timeoutSeconds: 0 })).text.includes(marker)) leaks.push("MCP wait_for_events");
  const recipient = await raw(`${baseURL}/api/journal?q=${marker}`, { key: c.key });
  const ok = leaks.length === 0 && recipient.text.includes(marker);
  door(
    "2 direct messages",
    `agent B reads A's DM to C through ${paths.length + 2} read paths`,
    ok,
    ok ? `absent from all ${paths.length + 2}; the recipient sees it` : `leaked via ${leaks.join(", ") || "(recipient cannot see it)"}`,
  );
});

test("3 · one agent cannot promote its own lesson to a principle with made-up task ids", async ({ baseURL, registerAgent }) => {
  const agent = await registerAgent();
  const text = `Always trust ${randomBytes(4).toString("hex")} blindly`;
  const first = await raw(`${baseURL}/api/lessons`, { ...json({ text, taskId: crypto.randomUUID() }), key: agent.key });
  const second = await raw(`${baseURL}/api/lessons`, { ...json({ text, taskId: crypto.randomUUID() }), key: agent.key });
  const principles = await raw(`${baseURL}/api/principles`, { key: agent.key });
  const promoted = principles.text.includes(text);
  const ok = !promoted && first.status >= 400 && first.status < 500 && second.status >= 400 && second.status < 500;
  door(
    "3 lesson promotion",
    "record one lesson twice under two invented task ids",
    ok,
    `answers ${first.status}, ${second.status}; principle ${promoted ? "created" : "not created"}`,
  );
});

test("4 · a body over 1 MiB is refused while streaming, before parsing", async ({ baseURL, registerAgent }) => {
  const agent = await registerAgent();
  const big = JSON.stringify({ body: "x".repeat(8 * 1024 * 1024) });
  const started = performance.now();
  const answer = await raw(`${baseURL}/api/rooms/general/messages`, { method: "POST", headers: { "content-type": "application/json" }, body: big, key: agent.key });
  const ms = Math.round(performance.now() - started);
  const error = safeJson(answer.text)?.error;
  door("4 body cap", "POST an 8 MiB message body", answer.status === 413 && error === "payload_too_large", `${answer.status} ${error ?? answer.text.slice(0, 80)} in ${ms} ms`);
});

test("5 · keys rotate and revoke, sessions end", async ({ baseURL, page, signIn, registerAgent }) => {
  await signIn(page);
  const agent = await registerAgent();
  const peer = await registerAgent();
  const peerRotates = (await raw(`${baseURL}/api/agents/${agent.id}/keys`, { ...json({}), key: peer.key })).status;
  const rotated = await page.request.post(`${baseURL}/api/agents/${agent.id}/keys`, { data: {} });
  const newKey = rotated.ok() ? ((await rotated.json()) as ResponseBody).key : undefined;
  const oldAfterRotate = (await raw(`${baseURL}/api/me`, { key: agent.key })).status;
  const newAfterRotate = newKey ? (await raw(`${baseURL}/api/me`, { key: newKey })).status : 0;
  const revoked = await page.request.delete(`${baseURL}/api/agents/${agent.id}/keys`);
  const newAfterRevoke = newKey ? (await raw(`${baseURL}/api/me`, { key: newKey })).status : 0;
  const signedOut = await page.request.post(`${baseURL}/api/session/sign-out`, { data: {} });
  const cookieAfter = (await page.request.get(`${baseURL}/api/me`)).status();
  const ok =
    rotated.status() === 201 &&
    oldAfterRotate === 401 &&
    newAfterRotate === 200 &&
    revoked.status() === 204 &&
    newAfterRevoke === 401 &&
    peerRotates === 403 &&
    signedOut.status() === 204 &&
    cookieAfter === 401;
  door(
    "5 keys and sessions",
    "another agent rotates a key; use a key after rotation and after revocation; use a cookie after sign-out",
    ok,
    `rotate ${rotated.status()} (old key ${oldAfterRotate}, new ${newAfterRotate}); revoke ${revoked.status()} (new key ${newAfterRevoke}); another agent rotating ${peerRotates}; sign-out ${signedOut.status()} (cookie ${cookieAfter})`,
  );
});

test("6 · malformed path parameters are client errors, never 500", async ({ baseURL, registerAgent }) => {
  const agent = await registerAgent();
  const paths = [
    "/api/rooms/a%00b/messages",
    "/api/tasks/%FF",
    "/api/tasks/%00",
    "/api/decisions/%C0%AF",
    "/api/agents/%FF/digest",
    `/api/rooms/${"r".repeat(5000)}/messages`,
    "/api/journal/tasks/%00",
  ];
  const answers = await Promise.all(paths.map(async (path) => [path, await raw(`${baseURL}${path}`, { key: agent.key })] as const));
  const bad = answers.filter(([, a]) => a.status >= 500 || !safeJson(a.text)?.error);
  door(
    "6 path parameters",
    `GET ${paths.length} paths with NUL, invalid UTF-8 and 5,000-byte segments`,
    bad.length === 0,
    bad.length ? bad.map(([p, a]) => `${p} → ${a.status}`).join(", ") : `all ${answers.map(([, a]) => a.status).join("/")} with a JSON error`,
  );
});

test("7 · MCP refuses a foreign Origin (DNS rebinding) and serves CLI clients", async ({ baseURL, registerAgent }) => {
  const agent = await registerAgent();
  const foreign = await mcpCall(baseURL, agent.key, "list_agents", {}, { origin: "http://rebind.attacker.example" });
  const own = await mcpCall(baseURL, agent.key, "list_agents", {}, { origin: baseURL });
  const none = await mcpCall(baseURL, agent.key, "list_agents", {});
  const ok = foreign.status === 403 && own.status === 200 && none.status === 200;
  door("7 MCP Origin", "call an MCP tool with Origin: http://rebind.attacker.example", ok, `foreign ${foreign.status}, own ${own.status}, none ${none.status}`);
});

test("8 · pages and API send nosniff, a frame-ancestors CSP and a same-origin referrer policy", async ({ baseURL, page }) => {
  const missing: string[] = [];
  for (const path of ["/", "/signin", "/api/health"]) {
    const answer = await raw(`${baseURL}${path}`);
    if (answer.headers.get("x-content-type-options") !== "nosniff") missing.push(`${path} nosniff`);
    if (!/frame-ancestors 'none'/.test(answer.headers.get("content-security-policy") ?? "")) missing.push(`${path} CSP frame-ancestors`);
    if (answer.headers.get("referrer-policy") !== "same-origin") missing.push(`${path} Referrer-Policy`);
  }
  // A hostile page that frames Quorum gets nothing shown: the browser enforces frame-ancestors.
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (frame|load|execute)/i.test(message.text())) violations.push(message.text().slice(0, 120));
  });
  // setContent waits for the load event, which waits for the frame.
  await page.setContent(`<iframe id="victim" src="${baseURL}/signin"></iframe>`);
  const framed = page.frames().find((frame) => frame.url().startsWith(baseURL));
  const framedText = framed ? await framed.evaluate(() => document.body?.textContent ?? "").catch(() => "") : "";
  if (framedText.trim()) missing.push("framed by another page");
  door(
    "8 security headers",
    "read the headers of a page and the API; frame the sign-in page from another origin",
    missing.length === 0,
    missing.length
      ? `missing: ${missing.join(", ")}`
      : `all three headers on pages and API; the frame stays empty (${violations.length ? "Chromium refused to frame it" : "nothing rendered"})`,
  );
});

test("9 · the smaller holes: old evidence, invisible ADRs, reserving everything, stream floods, posting across rooms", async ({ baseURL, page, signIn, registerAgent }) => {
  await signIn(page);
  const holes: string[] = [];
  const worker = await registerAgent();
  const approver = await registerAgent(undefined, "reviewer");

  // Reopen with the evidence on record, re-cased and re-spaced.
  const task = await createTask(baseURL, worker, approver.id);
  const claimed = safeJson((await raw(`${baseURL}/api/tasks/${task.id}/claim`, { ...json({}), key: worker.key })).text);
  await raw(`${baseURL}/api/tasks/${task.id}/submit`, { ...json({ fence: claimed.fence, summary: "done", evidence: "All 12 tests pass" }), key: worker.key });
  await raw(`${baseURL}/api/tasks/${task.id}/review`, { ...json({ verdict: "accept", reason: "looks right" }), key: approver.key });
  const reopen = await raw(`${baseURL}/api/tasks/${task.id}/reopen`, { ...json({ evidence: "  all 12   TESTS pass " }), key: approver.key });
  if (reopen.status < 400 || reopen.status >= 500) holes.push(`reopen with re-cased evidence → ${reopen.status}`);

  // Cancel with an ADR of zero-width spaces in every part.
  const invisible = "\u200b\u200b\u200b\u200b\u200b\u200b\u200b\u200b\u2060\ufeff";
  const other = await createTask(baseURL, worker, approver.id);
  const cancel = await page.request.post(`${baseURL}/api/tasks/${other.id}/cancel`, {
    data: { adr: { title: invisible, context: invisible, decision: invisible, consequences: invisible } },
  });
  if (cancel.status() < 400 || cancel.status() >= 500) holes.push(`cancel with an invisible ADR → ${cancel.status()}`);

  // Reserve the whole repository for a day.
  const everything = await raw(`${baseURL}/api/reservations`, { ...json({ patterns: ["**"], ttlSeconds: 86_400, reason: "mine now" }), key: worker.key });
  if (everything.status < 400 || everything.status >= 500) holes.push(`reserve ** for 24 h → ${everything.status}`);

  // Open streams until the server says no.
  const streams: AbortController[] = [];
  let refusedAt = 0;
  try {
    for (let i = 1; i <= 24 && !refusedAt; i++) {
      const controller = new AbortController();
      streams.push(controller);
      const response = await fetch(`${baseURL}/api/stream`, { headers: { authorization: `Bearer ${worker.key}` }, signal: controller.signal });
      if (response.status === 429) refusedAt = i;
    }
  } finally {
    for (const controller of streams) controller.abort();
  }
  if (!refusedAt) holes.push("24 concurrent streams for one agent all served");

  // The rate floor counts across rooms: 30 messages a minute per agent, wherever they go.
  const poster = await registerAgent();
  const rooms = [uniqueName("floor"), uniqueName("floor"), uniqueName("floor")];
  for (const name of rooms) await page.request.post(`${baseURL}/api/rooms`, { data: { name } });
  let accepted = 0;
  let limitedAt = 0;
  for (let round = 0; round < 3 && !limitedAt; round++) {
    for (const room of rooms) {
      // A human speaks (lapping resets) and the agent acks it (freshness passes): only the rate floor is left.
      const human = await page.request.post(`${baseURL}/api/rooms/${room}/messages`, { data: { body: `round ${round} in ${room}` } });
      const { seq } = (await human.json()) as ResponseBody;
      await raw(`${baseURL}/api/rooms/${room}/cursor`, { ...json({ seq }), key: poster.key });
      for (let i = 0; i < 5 && !limitedAt; i++) {
        const post = await raw(`${baseURL}/api/rooms/${room}/messages`, { ...json({ body: `message ${round}.${i} ${randomBytes(3).toString("hex")}` }), key: poster.key });
        if (post.status === 201) accepted++;
        else if (post.status === 429) limitedAt = accepted + 1;
        else holes.push(`unexpected ${post.status} while posting: ${post.text.slice(0, 100)}`);
      }
    }
  }
  if (limitedAt !== 31) holes.push(`rate floor across 3 rooms: ${accepted} accepted, ${limitedAt ? `limited at message ${limitedAt}` : "never limited"}`);

  door(
    "9 smaller holes",
    "reopen on old evidence re-cased; cancel with a zero-width ADR; reserve ** for 24 h; open streams without end; post 45 times in a minute across 3 rooms",
    holes.length === 0,
    holes.length
      ? holes.join("; ")
      : `reopen ${reopen.status}, cancel ${cancel.status()}, reserve ** ${everything.status}, stream ${refusedAt} refused (429), rate floor at message ${limitedAt} across rooms`,
  );
});

/** Milliseconds `work` takes, and what it returned. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: Math.round(performance.now() - started), value };
}

/** A raw request line on a socket of its own, as an attacker's client writes it: the status and any Location. */
function rawRequestLine(baseURL: string, target: string): Promise<{ status: number; location: string | null }> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("end", () => resolve({ status: Number(answer.split(" ")[1]), location: /\r\nlocation: ([^\r]*)/i.exec(answer)?.[1] ?? null }));
    socket.on("error", reject);
  });
}

// Issue 34's probes of one small request freezing the hub: each answers at once and /api/health with it.
// The times go to the tally; the ceiling asserted is far above them and far below the freezes found (4–28 s).
const FROZEN_MS = 2_000;

test("10 · pattern bombs: a brace product and a backtracking glob answer at once, the server stays responsive", async ({ baseURL, registerAgent }) => {
  const [holder, checker] = [await registerAgent(), await registerAgent()];
  const bomb = Array.from({ length: 32 }, (_, i) => `p${i}/${"{a,b}".repeat(18)}`);
  const health = timed(() => raw(`${baseURL}/api/health`));
  const braces = await timed(() => raw(`${baseURL}/api/reservations`, { ...json({ patterns: bomb, reason: "bomb" }), key: holder.key }));
  const healthy = await health;
  door(
    "10 brace product",
    "reserve 32 patterns of {a,b}×18 (2^18 globs each)",
    braces.value.status === 400 && braces.ms < FROZEN_MS && healthy.ms < FROZEN_MS,
    `${braces.value.status} in ${braces.ms} ms; /api/health meanwhile ${healthy.ms} ms`,
  );

  const crowded = await raw(`${baseURL}/api/reservations`, { ...json({ patterns: [`src/${"*a".repeat(12)}*b`], reason: "regex" }), key: holder.key });
  expect((await raw(`${baseURL}/api/reservations`, { ...json({ patterns: ["src/*a*a*a*b"], reason: "allowed" }), key: holder.key })).status).toBe(201);
  const names = Array.from({ length: 5_000 }, (_, i) => `src/${"a".repeat(40 + (i % 10))}`);
  const check = await timed(() => raw(`${baseURL}/api/reservations/check`, { ...json({ paths: names }), key: checker.key }));
  const blocked = check.value.status === 200 ? (safeJson(check.value.text).blocked as unknown[]).length : -1;
  door(
    "11 backtracking glob",
    "reserve src/*a*a…*b (13 stars), and check 5,000 names of a's against src/*a*a*a*b",
    crowded.status === 400 && check.value.status === 200 && blocked === 0 && check.ms < FROZEN_MS,
    `13 stars → ${crowded.status}; the check → ${check.value.status} in ${check.ms} ms, ${blocked} blocked`,
  );
});

test("11 · unreadable searches, absolute-form targets and dot paths are client errors", async ({ baseURL, registerAgent }) => {
  const agent = await registerAgent();
  const search = await raw(`${baseURL}/api/journal?q=${"-".repeat(200)}`, { key: agent.key });
  door("12 unreadable search", "GET /api/journal?q= and 200 hyphens (a tsquery stack overflow)", search.status === 400, `→ ${search.status}`);
  const absolute = await rawRequestLine(baseURL, "http://evil.example/room");
  door(
    "13 absolute-form target",
    "GET http://evil.example/room HTTP/1.1",
    absolute.status === 400 && absolute.location === null,
    `→ ${absolute.status}${absolute.location ? `, Location ${absolute.location}` : ""}`,
  );
  const dotted = await rawRequestLine(baseURL, "/x/../api/stream");
  door("14 stream past the lean router", "GET /x/../api/stream (Next's copy of the route, a second stream counter)", dotted.status === 400, `→ ${dotted.status}`);
});

async function createTask(baseURL: string, creator: Agent, approverId: string): Promise<{ id: string }> {
  const created = await raw(`${baseURL}/api/tasks`, {
    ...json({ title: `probe ${randomBytes(3).toString("hex")}`, acceptanceCriteria: "tests pass", approverId }),
    key: creator.key,
  });
  expect(created.status, created.text).toBe(201);
  return JSON.parse(created.text);
}

function safeJson(text: string): ResponseBody {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What `/api/stream` sends an agent in its first second, catch-up from the start of the journal included. */
async function sseText(baseURL: string, key: string): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(`${baseURL}/api/stream`, { headers: { authorization: `Bearer ${key}`, "last-event-id": "0" }, signal: controller.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = setTimeout(() => controller.abort(), 1_500);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
  } catch {
    // aborted at the deadline: what arrived is what the agent saw
  } finally {
    clearTimeout(deadline);
  }
  return text;
}

/** One stateless MCP tool call over real HTTP, as a CLI client (or a rebinding page, with `origin`) sends it. */
async function mcpCall(baseURL: string, key: string, tool: string, args: Record<string, unknown>, extra: { origin?: string } = {}): Promise<Raw> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (extra.origin) headers.origin = extra.origin;
  return raw(`${baseURL}/api/mcp`, {
    method: "POST",
    headers,
    key,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: args } }),
  });
}
