// A stand-in for GitHub's REST API in its own process, for the tests of the hub's work on GitHub: it serves GitHub
// Enterprise-style paths under /api/v3 (pull requests, their reviews and comments, issues, check runs and their
// annotations), keeps its state in memory and checks every request it receives and every response it sends against
// GitHub's own OpenAPI description (@octokit/openapi), so a test that passes here speaks GitHub's wire. A request the
// description forbids is answered 422 and recorded; a response it forbids (a bug of the stand-in) is recorded and still sent.
// /api/graphql serves the one mutation REST lacks, marking a draft ready (./github-stand-in-graphql.ts).
// What a person or CI would do on GitHub (merge, review, run a check, open or label an issue, register a webhook) is
// a test-only control under /_stand-in/ (github-stand-in-controls.ts); repository webhooks are delivered, signed, as
// GitHub's would be (github-stand-in-webhooks.ts), and the records and their views live in github-stand-in-views.ts.
// Usage: node --import tsx test/processes/github-stand-in.ts TOKEN  (or GITHUB_STAND_IN_TOKEN)  → prints "listening http://127.0.0.1:PORT"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import type { ErrorObject } from "ajv";
import type { SeenRequest, Violation } from "../fixtures/github-stand-in";
import { control, WEBHOOK_EVENTS } from "./github-stand-in-controls";
import {
  annotationView,
  checkRunView,
  inRepo,
  type Issue,
  type IssueComment,
  issueCommentView,
  issueView,
  LOGIN,
  nextNumber,
  now,
  type Pull,
  pageOf,
  pullView,
  reviewCommentView,
  reviewView,
  refSha,
  setOrigin,
  simpleView,
  store,
} from "./github-stand-in-views";
import { answerGraphql } from "./github-stand-in-graphql";
import { Hookshot } from "./github-stand-in-webhooks";
import { type Matched, OpenApiValidator } from "./openapi-validator";

type Answer = [number, unknown, Record<string, string>?];

const token = process.argv[2] ?? process.env.GITHUB_STAND_IN_TOKEN;
if (!token) {
  process.stderr.write("usage: github-stand-in.ts TOKEN (or GITHUB_STAND_IN_TOKEN)\n");
  process.exit(2);
}
const REST_DOCS = "https://docs.github.com/rest";
const BAD_CREDENTIALS = { message: "Bad credentials", documentation_url: REST_DOCS };

const startedAt = Date.now();
const validator = new OpenApiValidator(createRequire(import.meta.url).resolve("@octokit/openapi/generated/api.github.com.json"));
const handlers: Record<string, (matched: Matched, body: Record<string, unknown>) => Answer> = {
  "pulls/create": createPull,
  "pulls/list": listPulls,
  "pulls/get": (m) => withPull(m, (pull) => [200, pullView(pull)]),
  "pulls/update": (m, body) => withPull(m, (pull) => changePull(m, pull, body) ?? [200, pullView(pull)]),
  "pulls/list-reviews": (m) => withPull(m, (pull) => [200, pageOf(store.reviews.filter(onItem(pull)), m.query).map(reviewView)]),
  "pulls/list-comments-for-review": listCommentsForReview,
  "pulls/list-review-comments": listReviewComments,
  "checks/list-for-ref": listCheckRuns,
  "checks/get": (m) => withCheckRun(m, (run) => [200, checkRunView(run)]),
  "checks/list-annotations": (m) => withCheckRun(m, (run) => [200, pageOf(run.annotations, m.query).map((a) => annotationView(run, a))]),
  "issues/list-for-repo": listIssues,
  "issues/get": (m) => withIssue(m, (item) => [200, issueView(item)]),
  "issues/update": updateIssue,
  "issues/create-comment": createComment,
  "issues/list-comments": (m) => withIssue(m, (item) => [200, pageOf(commentsOn(item, m.query.since as string | undefined), m.query).map(issueCommentView)]),
};
validator.warm(Object.keys(handlers));

const requests: SeenRequest[] = [];
const violations: Violation[] = [];
const hookshot = new Hookshot((violation) => violations.push(violation));
hookshot.warm(WEBHOOK_EVENTS);
let origin = "";

const notFound = (m: Matched): Answer => [404, { message: "Not Found", documentation_url: m.docs, status: "404" }];
/** Whether a record (a review, a comment) belongs to this issue or pull request. */
const onItem = (item: { owner: string; repo: string; number: number }) => (other: { owner: string; repo: string; number: number }) =>
  inRepo(item.owner, item.repo)(other) && other.number === item.number;

function validationFailed(docs: string, message: string, field?: string, resource = "PullRequest") {
  return { message: "Validation Failed", errors: [{ resource, code: "custom", ...(field ? { field } : {}), message }], documentation_url: docs, status: "422" };
}

/** Two pull requests are twins when they ask to merge the same head into the same base: GitHub keeps one of them open. */
const twinKey = (p: Pull) => `${p.owner}/${p.repo} ${p.headOwner}:${p.head} ${p.base}`;
const isOpenTwin = (pull: Pull, other: Pull) => other !== pull && other.state === "open" && twinKey(other) === twinKey(pull);

function createPull(m: Matched, body: Record<string, unknown>): Answer {
  const { owner, repo } = m.params as { owner: string; repo: string };
  const [headOwner, head] = String(body.head).includes(":") ? String(body.head).split(":", 2) : [owner, String(body.head)];
  if (typeof body.title !== "string")
    return [422, { ...validationFailed(m.docs, "title wasn't supplied.", "title"), errors: [{ resource: "PullRequest", field: "title", code: "missing_field" }] }];
  const at = now();
  const pull: Pull = {
    ...{ owner, repo, number: nextNumber(owner, repo), id: 1000 + store.pulls.length + 1, title: body.title, labels: [] },
    ...{ body: typeof body.body === "string" ? body.body : null, headOwner, head, base: String(body.base), draft: body.draft === true },
    ...{ maintainerCanModify: body.maintainer_can_modify !== false, state: "open", merged: false, createdAt: at, updatedAt: at, closedAt: null, mergedAt: null },
  };
  if (store.pulls.some((other) => isOpenTwin(pull, other))) return [422, validationFailed(m.docs, `A pull request already exists for ${headOwner}:${head}.`)];
  store.pulls.push(pull);
  const view = pullView(pull);
  return [201, view, { location: view.url }];
}

function withPull(m: Matched, act: (pull: Pull) => Answer): Answer {
  const { owner, repo, pull_number } = m.params as { owner: string; repo: string; pull_number: number };
  const pull = store.pulls.find((p) => inRepo(owner, repo)(p) && p.number === pull_number);
  return pull ? act(pull) : notFound(m);
}

function listPulls(m: Matched): Answer {
  const { owner, repo } = m.params as { owner: string; repo: string };
  const q = m.query as { state?: string; head?: string; base?: string; direction?: string };
  const state = q.state ?? "open";
  const chosen = store.pulls.filter(
    (p) => inRepo(owner, repo)(p) && (state === "all" || p.state === state) && (!q.head || q.head === `${p.headOwner}:${p.head}`) && (!q.base || q.base === p.base),
  );
  if (q.direction !== "asc") chosen.reverse();
  return [200, pageOf(chosen, m.query).map(simpleView)];
}

/** Applies a pulls/update (or an issues/update of a pull request) and answers null, or the refusal GitHub would give. */
function changePull(m: Matched, pull: Pull, body: Record<string, unknown>): Answer | null {
  if (body.state === "open" && pull.state === "closed") {
    if (pull.merged) return [422, validationFailed(m.docs, "state cannot be changed. The pull request cannot be reopened.", "state")];
    if (store.pulls.some((other) => isOpenTwin(pull, other))) return [422, validationFailed(m.docs, `A pull request already exists for ${pull.headOwner}:${pull.head}.`)];
  }
  if (typeof body.title === "string") pull.title = body.title;
  if (typeof body.body === "string") pull.body = body.body;
  if (typeof body.base === "string") pull.base = body.base;
  if (typeof body.maintainer_can_modify === "boolean") pull.maintainerCanModify = body.maintainer_can_modify;
  if (Array.isArray(body.labels)) pull.labels = labelNames(body.labels);
  pull.updatedAt = now();
  if (body.state === "closed" && pull.state === "open") Object.assign(pull, { state: "closed", closedAt: pull.updatedAt });
  if (body.state === "open" && pull.state === "closed") Object.assign(pull, { state: "open", closedAt: null });
  return null;
}

function listCommentsForReview(m: Matched): Answer {
  return withPull(m, (pull) => {
    const review = store.reviews.find((r) => onItem(pull)(r) && r.id === m.params.review_id);
    if (!review) return notFound(m);
    return [
      200,
      pageOf(
        store.reviewComments.filter((c) => c.reviewId === review.id),
        m.query,
      ).map(reviewCommentView),
    ];
  });
}

function listReviewComments(m: Matched): Answer {
  return withPull(m, (pull) => {
    const q = m.query as { sort?: string; direction?: string; since?: string };
    const chosen = store.reviewComments.filter((c) => onItem(pull)(c) && (!q.since || c.createdAt >= q.since));
    if (q.direction === "desc") chosen.reverse();
    return [200, pageOf(chosen, m.query).map(reviewCommentView)];
  });
}

function listCheckRuns(m: Matched): Answer {
  const { owner, repo, ref } = m.params as { owner: string; repo: string; ref: string };
  const q = m.query as { check_name?: string; status?: string; filter?: string };
  const sha = refSha(owner, repo, ref);
  let chosen = store.checkRuns.filter((r) => inRepo(owner, repo)(r) && r.headSha === sha);
  // "latest" (the default) keeps each name's most recent run, as a re-run replaces the one before it.
  if (q.filter !== "all") chosen = chosen.filter((r) => chosen.findLast((other) => other.name === r.name) === r);
  chosen = chosen.filter((r) => (!q.check_name || r.name === q.check_name) && (!q.status || r.status === q.status));
  return [200, { total_count: chosen.length, check_runs: chosen.map(checkRunView) }];
}

function withCheckRun(m: Matched, act: (run: (typeof store.checkRuns)[number]) => Answer): Answer {
  const { owner, repo, check_run_id } = m.params as { owner: string; repo: string; check_run_id: number };
  const run = store.checkRuns.find((r) => inRepo(owner, repo)(r) && r.id === check_run_id);
  return run ? act(run) : notFound(m);
}

/** An issue number names a plain issue or a pull request: every pull request is an issue too. */
function withIssue(m: Matched, act: (item: Issue | Pull) => Answer): Answer {
  const { owner, repo, issue_number } = m.params as { owner: string; repo: string; issue_number: number };
  const item = [...store.issues, ...store.pulls].find((i) => inRepo(owner, repo)(i) && i.number === issue_number);
  return item ? act(item) : notFound(m);
}

/** The issues endpoint lists pull requests too (with a `pull_request` key), as GitHub's does. */
function listIssues(m: Matched): Answer {
  const { owner, repo } = m.params as { owner: string; repo: string };
  const q = m.query as { state?: string; labels?: string; creator?: string; sort?: string; direction?: string; since?: string };
  const state = q.state ?? "open";
  const wanted = (q.labels ?? "")
    .split(",")
    .map((label) => label.trim())
    .filter(Boolean);
  const chosen = [...store.issues, ...store.pulls].filter(
    (item) =>
      inRepo(owner, repo)(item) &&
      (state === "all" || item.state === state) &&
      wanted.every((label) => item.labels.includes(label)) &&
      (!q.creator || q.creator === ("head" in item ? LOGIN : item.user)) &&
      (!q.since || item.updatedAt >= q.since),
  );
  const rank = (item: Issue | Pull) => (q.sort === "comments" ? commentsOn(item).length : Date.parse(q.sort === "updated" ? item.updatedAt : item.createdAt));
  chosen.sort((a, b) => rank(a) - rank(b) || a.number - b.number);
  if (q.direction !== "asc") chosen.reverse();
  return [200, pageOf(chosen, m.query).map(issueView)];
}

/** Labels as issues/update takes them: names, or objects with a name. */
function labelNames(labels: unknown[]): string[] {
  return [...new Set(labels.map((label) => (typeof label === "string" ? label : String((label as { name?: string }).name ?? ""))).filter(Boolean))];
}

function updateIssue(m: Matched, body: Record<string, unknown>): Answer {
  return withIssue(m, (item) => {
    if ("head" in item) return changePull(m, item, body) ?? [200, issueView(item)];
    if (typeof body.title === "string") item.title = body.title;
    if (typeof body.body === "string") item.body = body.body;
    if (Array.isArray(body.labels)) item.labels = labelNames(body.labels);
    item.updatedAt = now();
    if (body.state === "closed" && item.state === "open") {
      const reason = (body.state_reason ?? "completed") as Issue["stateReason"];
      Object.assign(item, { state: "closed", stateReason: reason, closedAt: item.updatedAt, closedBy: LOGIN });
    }
    if (body.state === "open" && item.state === "closed") Object.assign(item, { state: "open", stateReason: "reopened", closedAt: null, closedBy: null });
    return [200, issueView(item)];
  });
}

function commentsOn(item: Issue | Pull, since?: string): IssueComment[] {
  return store.comments.filter((c) => onItem(item)(c) && (!since || c.createdAt >= since));
}

/** A comment on the conversation of an issue or a pull request, by the token's account. */
function createComment(m: Matched, body: Record<string, unknown>): Answer {
  return withIssue(m, (item) => {
    const comment: IssueComment = {
      id: 7_000_000 + store.comments.length + 1,
      owner: item.owner,
      repo: item.repo,
      number: item.number,
      user: LOGIN,
      body: String(body.body),
      createdAt: now(),
    };
    store.comments.push(comment);
    item.updatedAt = comment.createdAt;
    const view = issueCommentView(comment);
    return [201, view, { location: view.url }];
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "x-github-media-type": "github.v3; format=json", ...headers }).end(text);
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** GitHub's wording for a body the description refuses: `"head" wasn't supplied.` for a missing field. */
function refusal(errors: ErrorObject[]): string {
  const lines = errors.map((e) =>
    e.keyword === "required" ? `"${e.params.missingProperty}" wasn't supplied.` : `${e.instancePath.replace(/^\/(body|path|query)\/?/, "") || "body"} ${e.message}.`,
  );
  return `Invalid request.\n\n${[...new Set(lines)].join("\n")}`;
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const method = req.method ?? "GET";
  const url = new URL(req.url ?? "/", origin);
  const raw = await readAll(req);
  if (url.pathname.startsWith("/_stand-in/")) {
    const [status, answer] = await control(method, url.pathname, raw, { hookshot, requests, violations });
    return send(res, status, answer);
  }
  const seen: SeenRequest = { method, path: url.pathname, query: Object.fromEntries(url.searchParams), body: null, operationId: null, status: 0 };
  requests.push(seen);
  const fail = (where: Violation["where"], status: number, errors: Violation["errors"]) =>
    violations.push({
      method,
      path: url.pathname,
      operationId: seen.operationId,
      where,
      status,
      errors: errors.map(({ instancePath, keyword, message, params }) => ({ instancePath, keyword, message, params })),
    });
  const reply = (matched: Matched | null, status: number, body: unknown, headers: Record<string, string> = {}) => {
    seen.status = status;
    const errors = matched ? validator.checkResponse(matched.operationId, status, body) : [];
    if (errors.length > 0) fail("response", status, errors);
    send(res, status, body, headers);
  };
  let body: unknown;
  try {
    body = raw === "" ? undefined : JSON.parse(raw);
  } catch {
    return reply(null, 400, { message: "Problems parsing JSON", documentation_url: REST_DOCS, status: "400" });
  }
  seen.body = body ?? null;
  if (method === "POST" && url.pathname === "/api/graphql") {
    const given = /^(?:token|bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
    if (given !== token) return reply(null, 401, BAD_CREDENTIALS);
    const { status, answer, problems } = answerGraphql(body);
    if (problems.length)
      fail(
        "request",
        status,
        problems.map((message) => ({ instancePath: "/query", keyword: "graphql", params: {}, message })),
      );
    return reply(null, status, answer);
  }
  const apiPath = url.pathname.startsWith("/api/v3/") ? url.pathname.slice("/api/v3".length) : null;
  const checked = apiPath === null ? null : validator.checkRequest(method, apiPath, url.searchParams, body);
  if (!checked?.matched) {
    fail("route", 404, [{ instancePath: "", keyword: "path", params: {}, message: `no operation of GitHub's description is ${method} ${url.pathname}` }]);
    return reply(null, 404, { message: "Not Found", documentation_url: REST_DOCS, status: "404" });
  }
  const { matched } = checked;
  seen.operationId = matched.operationId;
  const given = /^(?:token|bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  if (given !== token) return reply(matched, 401, BAD_CREDENTIALS);
  if (checked.errors.length > 0) {
    fail("request", 422, checked.errors);
    return reply(matched, 422, { message: refusal(checked.errors), documentation_url: matched.docs, status: "422" });
  }
  const handler = handlers[matched.operationId];
  if (!handler) {
    fail("route", 404, [{ instancePath: "", keyword: "operation", params: {}, message: `the stand-in does not serve ${matched.operationId}` }]);
    return reply(matched, 404, { message: "Not Found", documentation_url: matched.docs, status: "404" });
  }
  const [status, payload, headers] = handler(matched, (body ?? {}) as Record<string, unknown>);
  reply(matched, status, payload, headers);
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    process.stderr.write(`github stand-in: ${error instanceof Error ? error.stack : String(error)}\n`);
    if (!res.headersSent) send(res, 500, { message: "Server Error" });
  });
});

server.listen(0, "127.0.0.1", () => {
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  setOrigin(origin);
  process.stderr.write(`github stand-in: description loaded and checked in ${Date.now() - startedAt} ms\n`);
  process.stdout.write(`listening ${origin}\n`);
});
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => server.close(() => process.exit(0)));
// The parent holds our stdin open; if it dies without stopping us, we go too.
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
