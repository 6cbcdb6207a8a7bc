// A stand-in for GitHub's REST API in its own process, for the tests of opening pull requests: it serves
// GitHub Enterprise-style paths under /api/v3 (pulls create/list/get/update, check runs for a ref), keeps its state
// in memory and checks every request it receives and every response it sends against GitHub's own OpenAPI
// description (@octokit/openapi), so a test that passes here speaks GitHub's wire. A request the description
// forbids is answered 422 and recorded; a response it forbids (a bug of the stand-in) is recorded and still sent.
// Test-only controls sit outside /api/v3: POST /_stand-in/pulls/{owner}/{repo}/{n}/merge, POST /_stand-in/check-runs,
// GET /_stand-in/requests and GET /_stand-in/violations.
// Usage: node --import tsx test/processes/github-stand-in.ts TOKEN  (or GITHUB_STAND_IN_TOKEN)  → prints "listening http://127.0.0.1:PORT"
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import type { ErrorObject } from "ajv";
import type { CheckRunInput, SeenRequest, Violation } from "../fixtures/github-stand-in";
import { type Matched, OpenApiValidator } from "./openapi-validator";

interface Pull {
  owner: string;
  repo: string;
  number: number;
  id: number;
  title: string;
  body: string | null;
  headOwner: string;
  head: string;
  base: string;
  draft: boolean;
  maintainerCanModify: boolean;
  state: "open" | "closed";
  merged: boolean;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  mergedAt: string | null;
}

interface CheckRun extends Required<Omit<CheckRunInput, "ref" | "title" | "summary">> {
  id: number;
  headSha: string;
  title: string | null;
  summary: string | null;
  startedAt: string;
}

const token = process.argv[2] ?? process.env.GITHUB_STAND_IN_TOKEN;
if (!token) {
  process.stderr.write("usage: github-stand-in.ts TOKEN (or GITHUB_STAND_IN_TOKEN)\n");
  process.exit(2);
}
/** The account the token belongs to: the author of every pull request it opens. */
const LOGIN = "quorum-bot";
const REST_DOCS = "https://docs.github.com/rest";
const BAD_CREDENTIALS = { message: "Bad credentials", documentation_url: REST_DOCS };

const startedAt = Date.now();
const validator = new OpenApiValidator(createRequire(import.meta.url).resolve("@octokit/openapi/generated/api.github.com.json"));
const handlers: Record<string, (matched: Matched, body: Record<string, unknown>) => [number, unknown, Record<string, string>?]> = {
  "pulls/create": createPull,
  "pulls/list": listPulls,
  "pulls/get": (m) => withPull(m, (pull) => [200, pullView(pull)]),
  "pulls/update": updatePull,
  "checks/list-for-ref": listCheckRuns,
};
validator.warm(Object.keys(handlers));

const pulls: Pull[] = [];
const checkRuns: CheckRun[] = [];
const requests: SeenRequest[] = [];
const violations: Violation[] = [];
const ids = new Map<string, number>();
let origin = "";
const api = () => `${origin}/api/v3`;
const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
const bootedAt = now();

/** A stable id per thing named (a user, a repository): GitHub's ids never change. */
function idOf(key: string): number {
  if (!ids.has(key)) ids.set(key, ids.size + 1);
  return ids.get(key)!;
}

/** There is no git behind the stand-in: a branch's head is a SHA derived from its name. */
function shaOf(owner: string, repo: string, branch: string): string {
  return createHash("sha1").update(`${owner}/${repo}:${branch}`).digest("hex");
}

/** A resource's `*_url` fields from a list of `key` (the path is the key) or `key=path`, as GitHub writes them under its API URL. */
function urlsOf(base: string, spec: string): Record<string, string> {
  return Object.fromEntries(spec.split(" ").map((entry) => [`${entry.split("=")[0].replace(/\{.*$/, "")}_url`, `${base}/${entry.split("=").at(-1)}`]));
}

function user(login: string) {
  const id = idOf(`user:${login}`);
  const url = `${api()}/users/${login}`;
  const links = "followers following{/other_user} gists{/gist_id} starred{/owner}{/repo} subscriptions organizations=orgs repos events{/privacy} received_events";
  return {
    ...{ login, id, node_id: `U_kgDO${id}`, avatar_url: `${origin}/avatars/u/${id}`, gravatar_id: "", url, html_url: `${origin}/${login}` },
    ...{ ...urlsOf(url, links), type: "User", site_admin: false },
  };
}

const REPOSITORY_URLS = [
  "archive={archive_format}{/ref} assignees{/user} blobs=git/blobs{/sha} branches{/branch} collaborators{/collaborator} comments{/number} commits{/sha}",
  "compare=compare/{base}...{head} contents=contents/{+path} contributors deployments downloads events forks git_commits=git/commits{/sha} git_refs=git/refs{/sha}",
  "git_tags=git/tags{/sha} hooks issue_comment=issues/comments{/number} issue_events=issues/events{/number} issues{/number} keys{/key_id} labels{/name}",
  "languages merges milestones{/number} notifications{?since,all,participating} pulls{/number} releases{/id} stargazers statuses=statuses/{sha}",
  "subscribers subscription tags teams trees=git/trees{/sha}",
].join(" ");

function repository(owner: string, name: string) {
  const id = idOf(`repo:${owner}/${name}`);
  const url = `${api()}/repos/${owner}/${name}`;
  const openIssues = pulls.filter((p) => p.owner === owner && p.repo === name && p.state === "open").length;
  const html = `${origin}/${owner}/${name}`;
  return {
    ...{ id, node_id: `R_kgDO${id}`, name, full_name: `${owner}/${name}`, owner: user(owner), private: false, html_url: html, description: null, fork: false, url },
    ...urlsOf(url, REPOSITORY_URLS),
    ...{ git_url: `git://${origin.replace(/^http:\/\//, "")}/${owner}/${name}.git`, ssh_url: `git@127.0.0.1:${owner}/${name}.git`, clone_url: `${html}.git`, svn_url: html },
    ...{ mirror_url: null, homepage: null, language: null, default_branch: "main", visibility: "public", license: null },
    ...{ forks: 0, forks_count: 0, stargazers_count: 0, watchers: 0, watchers_count: 0, size: 0, open_issues: openIssues, open_issues_count: openIssues },
    ...{ has_issues: true, has_projects: true, has_wiki: true, has_pages: false, has_downloads: true, archived: false, disabled: false },
    ...{ pushed_at: bootedAt, created_at: bootedAt, updated_at: bootedAt },
  };
}

function pullView(pull: Pull) {
  const { owner, repo, number } = pull;
  const url = `${api()}/repos/${owner}/${repo}/pulls/${number}`;
  const issue = `${api()}/repos/${owner}/${repo}/issues/${number}`;
  const html = `${origin}/${owner}/${repo}/pull/${number}`;
  const statuses = `${api()}/repos/${owner}/${repo}/statuses/${shaOf(pull.headOwner, repo, pull.head)}`;
  const reviewComment = `${api()}/repos/${owner}/${repo}/pulls/comments{/number}`;
  const side = (login: string, ref: string) => ({ label: `${login}:${ref}`, ref, sha: shaOf(login, repo, ref), user: user(login), repo: repository(login, repo) });
  const links = { self: url, html, issue, comments: `${issue}/comments`, review_comments: `${url}/comments`, review_comment: reviewComment, commits: `${url}/commits`, statuses };
  const open = pull.state === "open";
  return {
    ...{ url, id: pull.id, node_id: `PR_kwDO${pull.id}`, html_url: html, diff_url: `${html}.diff`, patch_url: `${html}.patch`, issue_url: issue, commits_url: `${url}/commits` },
    ...{ review_comments_url: `${url}/comments`, review_comment_url: reviewComment, comments_url: `${issue}/comments`, statuses_url: statuses },
    ...{ number, state: pull.state, locked: false, title: pull.title, user: user(LOGIN), body: pull.body, draft: pull.draft, author_association: "CONTRIBUTOR" },
    ...{ created_at: pull.createdAt, updated_at: pull.updatedAt, closed_at: pull.closedAt, merged_at: pull.mergedAt },
    ...{ labels: [], milestone: null, active_lock_reason: null, assignee: null, assignees: [], requested_reviewers: [], requested_teams: [], auto_merge: null },
    head: side(pull.headOwner, pull.head),
    base: side(owner, pull.base),
    _links: Object.fromEntries(Object.entries(links).map(([name, href]) => [name, { href }])),
    ...{ merged: pull.merged, merge_commit_sha: pull.merged ? shaOf(owner, repo, `merge-${number}`) : null, merged_by: pull.merged ? user(LOGIN) : null },
    ...{ mergeable: open ? true : null, rebaseable: open ? true : null, mergeable_state: !open ? "unknown" : pull.draft ? "draft" : "clean" },
    ...{ comments: 0, review_comments: 0, maintainer_can_modify: pull.maintainerCanModify, commits: 1, additions: 0, deletions: 0, changed_files: 0 },
  };
}

/** A pull request as a list shows it (GitHub's `pull-request-simple`): without the counts and merge state of a single one. */
function simpleView(pull: Pull) {
  const { merged: _m, mergeable: _a, rebaseable: _r, mergeable_state: _s, merged_by: _b, comments: _c, review_comments: _v, maintainer_can_modify: _x, ...simple } = pullView(pull);
  const { commits: _n, additions: _p, deletions: _d, changed_files: _f, ...rest } = simple;
  return rest;
}

function validationFailed(docs: string, message: string, field?: string) {
  return { message: "Validation Failed", errors: [{ resource: "PullRequest", code: "custom", ...(field ? { field } : {}), message }], documentation_url: docs, status: "422" };
}

/** Two pull requests are twins when they ask to merge the same head into the same base: GitHub keeps one of them open. */
const twinKey = (p: Pull) => `${p.owner}/${p.repo} ${p.headOwner}:${p.head} ${p.base}`;
const isOpenTwin = (pull: Pull, other: Pull) => other !== pull && other.state === "open" && twinKey(other) === twinKey(pull);

function createPull(m: Matched, body: Record<string, unknown>): [number, unknown, Record<string, string>] | [number, unknown] {
  const { owner, repo } = m.params as { owner: string; repo: string };
  const [headOwner, head] = String(body.head).includes(":") ? String(body.head).split(":", 2) : [owner, String(body.head)];
  if (typeof body.title !== "string")
    return [422, { ...validationFailed(m.docs, "title wasn't supplied.", "title"), errors: [{ resource: "PullRequest", field: "title", code: "missing_field" }] }];
  const at = now();
  const pull: Pull = {
    ...{ owner, repo, number: pulls.filter((p) => p.owner === owner && p.repo === repo).length + 1, id: 1000 + pulls.length + 1, title: body.title },
    ...{ body: typeof body.body === "string" ? body.body : null, headOwner, head, base: String(body.base), draft: body.draft === true },
    ...{ maintainerCanModify: body.maintainer_can_modify !== false, state: "open", merged: false, createdAt: at, updatedAt: at, closedAt: null, mergedAt: null },
  };
  if (pulls.some((other) => isOpenTwin(pull, other))) return [422, validationFailed(m.docs, `A pull request already exists for ${headOwner}:${head}.`)];
  pulls.push(pull);
  const view = pullView(pull);
  return [201, view, { location: view.url }];
}

function withPull(m: Matched, act: (pull: Pull) => [number, unknown]): [number, unknown] {
  const { owner, repo, pull_number } = m.params as { owner: string; repo: string; pull_number: number };
  const pull = pulls.find((p) => p.owner === owner && p.repo === repo && p.number === pull_number);
  return pull ? act(pull) : [404, { message: "Not Found", documentation_url: m.docs, status: "404" }];
}

function listPulls(m: Matched): [number, unknown] {
  const { owner, repo } = m.params as { owner: string; repo: string };
  const q = m.query as { state?: string; head?: string; base?: string; direction?: string; per_page?: number; page?: number };
  const state = q.state ?? "open";
  const chosen = pulls.filter(
    (p) => p.owner === owner && p.repo === repo && (state === "all" || p.state === state) && (!q.head || q.head === `${p.headOwner}:${p.head}`) && (!q.base || q.base === p.base),
  );
  if (q.direction !== "asc") chosen.reverse();
  const perPage = Math.min(q.per_page ?? 30, 100);
  const page = q.page ?? 1;
  return [200, chosen.slice((page - 1) * perPage, page * perPage).map(simpleView)];
}

function updatePull(m: Matched, body: Record<string, unknown>): [number, unknown] {
  return withPull(m, (pull) => {
    if (body.state === "open" && pull.state === "closed") {
      if (pull.merged) return [422, validationFailed(m.docs, "state cannot be changed. The pull request cannot be reopened.", "state")];
      if (pulls.some((other) => isOpenTwin(pull, other))) return [422, validationFailed(m.docs, `A pull request already exists for ${pull.headOwner}:${pull.head}.`)];
    }
    if (typeof body.title === "string") pull.title = body.title;
    if (typeof body.body === "string") pull.body = body.body;
    if (typeof body.base === "string") pull.base = body.base;
    if (typeof body.maintainer_can_modify === "boolean") pull.maintainerCanModify = body.maintainer_can_modify;
    pull.updatedAt = now();
    if (body.state === "closed" && pull.state === "open") Object.assign(pull, { state: "closed", closedAt: pull.updatedAt });
    if (body.state === "open" && pull.state === "closed") Object.assign(pull, { state: "open", closedAt: null });
    return [200, pullView(pull)];
  });
}

/** A ref names a commit by its SHA or a branch (`main`, `heads/main`, `refs/heads/main`). */
function refSha(owner: string, repo: string, ref: string): string {
  return /^[0-9a-f]{40}$/.test(ref) ? ref : shaOf(owner, repo, ref.replace(/^(refs\/)?heads\//, ""));
}

function checkRunView(run: CheckRun) {
  const url = `${api()}/repos/${run.owner}/${run.repo}/check-runs/${run.id}`;
  const html = `${origin}/${run.owner}/${run.repo}/runs/${run.id}`;
  const mini = (owner: string, ref: string) => ({
    ref,
    sha: shaOf(owner, run.repo, ref),
    repo: { id: idOf(`repo:${owner}/${run.repo}`), url: `${api()}/repos/${owner}/${run.repo}`, name: run.repo },
  });
  return {
    ...{ id: run.id, node_id: `CR_kwDO${run.id}`, head_sha: run.headSha, external_id: "", url, html_url: html, details_url: html, name: run.name },
    ...{ status: run.status, conclusion: run.conclusion, started_at: run.startedAt, completed_at: run.status === "completed" ? run.startedAt : null },
    output: { title: run.title, summary: run.summary, text: null, annotations_count: 0, annotations_url: `${url}/annotations` },
    check_suite: { id: idOf(`suite:${run.owner}/${run.repo}@${run.headSha}`) },
    app: {
      ...{ id: 15368, slug: "github-actions", node_id: "MDM6QXBwMTUzNjg=", owner: user("github"), name: "GitHub Actions", description: "Automate your workflow" },
      ...{ external_url: "https://help.github.com/en/actions", html_url: `${origin}/apps/github-actions`, created_at: bootedAt, updated_at: bootedAt },
      ...{ permissions: { checks: "write", metadata: "read", pull_requests: "write" }, events: ["check_run", "pull_request"] },
    },
    pull_requests: pulls
      .filter((p) => p.owner === run.owner && p.repo === run.repo && p.state === "open" && shaOf(p.headOwner, p.repo, p.head) === run.headSha)
      .map((p) => ({ id: p.id, number: p.number, url: `${api()}/repos/${p.owner}/${p.repo}/pulls/${p.number}`, head: mini(p.headOwner, p.head), base: mini(p.owner, p.base) })),
  };
}

function listCheckRuns(m: Matched): [number, unknown] {
  const { owner, repo, ref } = m.params as { owner: string; repo: string; ref: string };
  const q = m.query as { check_name?: string; status?: string; filter?: string };
  const sha = refSha(owner, repo, ref);
  let chosen = checkRuns.filter((r) => r.owner === owner && r.repo === repo && r.headSha === sha);
  // "latest" (the default) keeps each name's most recent run, as a re-run replaces the one before it.
  if (q.filter !== "all") chosen = chosen.filter((r) => chosen.findLast((other) => other.name === r.name) === r);
  chosen = chosen.filter((r) => (!q.check_name || r.name === q.check_name) && (!q.status || r.status === q.status));
  return [200, { total_count: chosen.length, check_runs: chosen.map(checkRunView) }];
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "x-github-media-type": "github.v3; format=json", ...headers }).end(text);
}

/** The test-only controls: merge a pull request as the forge would, add a check run, read what was received. */
function control(method: string, path: string, raw: string, res: ServerResponse) {
  if (method === "GET" && path === "/_stand-in/requests") return send(res, 200, requests);
  if (method === "GET" && path === "/_stand-in/violations") return send(res, 200, violations);
  const merge = /^\/_stand-in\/pulls\/([^/]+)\/([^/]+)\/(\d+)\/merge$/.exec(path);
  if (method === "POST" && merge) {
    const pull = pulls.find((p) => p.owner === merge[1] && p.repo === merge[2] && p.number === Number(merge[3]));
    if (!pull) return send(res, 404, { message: "Not Found" });
    const at = now();
    Object.assign(pull, { state: "closed", merged: true, mergedAt: at, closedAt: at, updatedAt: at });
    return send(res, 204, undefined);
  }
  if (method === "POST" && path === "/_stand-in/check-runs") {
    const input = JSON.parse(raw || "{}") as Partial<CheckRunInput>;
    if (![input.owner, input.repo, input.ref, input.name].every((v) => typeof v === "string" && v !== ""))
      return send(res, 400, { message: "owner, repo, ref and name are required" });
    const { owner, repo, ref, name } = input as CheckRunInput;
    const status = input.status ?? "completed";
    const conclusion = input.conclusion !== undefined ? input.conclusion : status === "completed" ? "success" : null;
    const headSha = refSha(owner, repo, ref);
    const run: CheckRun = {
      id: checkRuns.length + 1,
      owner,
      repo,
      name,
      status,
      conclusion,
      headSha,
      startedAt: now(),
      title: input.title ?? name,
      summary: input.summary ?? null,
    };
    checkRuns.push(run);
    return send(res, 201, { id: run.id, head_sha: run.headSha });
  }
  return send(res, 404, { message: `no control ${method} ${path}` });
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
  if (url.pathname.startsWith("/_stand-in/")) return control(method, url.pathname, raw, res);
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
  const apiPath = url.pathname.startsWith("/api/v3/") ? url.pathname.slice("/api/v3".length) : null;
  let body: unknown;
  try {
    body = raw === "" ? undefined : JSON.parse(raw);
  } catch {
    return reply(null, 400, { message: "Problems parsing JSON", documentation_url: REST_DOCS, status: "400" });
  }
  seen.body = body ?? null;
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
  process.stderr.write(`github stand-in: description loaded and checked in ${Date.now() - startedAt} ms\n`);
  process.stdout.write(`listening ${origin}\n`);
});
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => server.close(() => process.exit(0)));
// The parent holds our stdin open; if it dies without stopping us, we go too.
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
