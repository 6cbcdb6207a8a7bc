// The GitHub stand-in proved with the client Quorum will use (@octokit/rest): every call it makes is answered as
// GitHub would, and neither its requests nor the stand-in's responses break GitHub's own OpenAPI description. Its
// webhooks are received by a plain HTTP server here and verified with @octokit/webhooks, the library a receiver would
// use, so a signature the stand-in got wrong fails here rather than in the hub's tests.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhooks } from "@octokit/webhooks";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GitHubStandIn, startGitHubStandIn } from "./fixtures/github-stand-in";

const TOKEN = "ghp_stand-in-token-for-tests";
const owner = "acme";
const repo = "widgets";

/** Octokit logs every error answer on the console; the answers here are expected ones. */
const log = { debug() {}, info() {}, warn() {}, error() {} };

let standIn: GitHubStandIn;
let octokit: Octokit;

beforeAll(async () => {
  standIn = await startGitHubStandIn(TOKEN);
  octokit = new Octokit({ auth: TOKEN, baseUrl: standIn.apiUrl, log });
});

afterAll(async () => {
  await standIn?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** What the test's webhook receiver got: each POST's path, headers and raw body. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
let receiver: Server | undefined;
let receiverUrl = "";

/** A receiver answering 202, or the status a path asks for (`/status/500`), recording every request. */
async function startReceiver(): Promise<string> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(Number(/^\/status\/(\d{3})$/.exec(req.url ?? "")?.[1] ?? 202)).end();
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(receiver!.address() as AddressInfo).port}`;
}

/** The status of the error a call threw (octokit's RequestError), or null when it did not throw. */
async function statusOf(call: Promise<unknown>): Promise<number | null> {
  return call.then(
    () => null,
    (error: { status?: number }) => error.status ?? -1,
  );
}

describe("the GitHub stand-in, driven by @octokit/rest", () => {
  it("opens, reads, lists, updates and merges a pull request, lists its check runs, and refuses a twin and a wrong token", async () => {
    const { data: created, status } = await octokit.pulls.create({ owner, repo, head: "quorum/task-7", base: "main", title: "Task 7", body: "Done by the team.", draft: true });
    expect(status).toBe(201);
    expect(created).toMatchObject({ number: 1, state: "open", draft: true, merged: false, title: "Task 7", head: { ref: "quorum/task-7" }, base: { ref: "main" } });
    expect(created.html_url).toBe(`${standIn.origin}/${owner}/${repo}/pull/1`);

    const { data: got } = await octokit.pulls.get({ owner, repo, pull_number: 1 });
    expect(got).toMatchObject({ number: 1, title: "Task 7", body: "Done by the team." });

    const { data: listed } = await octokit.pulls.list({ owner, repo, head: `${owner}:quorum/task-7`, state: "open" });
    expect(listed.map((p) => p.number)).toEqual([1]);
    expect(await octokit.pulls.list({ owner, repo, head: `${owner}:other-branch` }).then((r) => r.data)).toEqual([]);

    const { data: updated } = await octokit.pulls.update({ owner, repo, pull_number: 1, title: "Task 7: ready", body: "Reviewed." });
    expect(updated).toMatchObject({ title: "Task 7: ready", body: "Reviewed.", state: "open" });

    const twin = await octokit.pulls.create({ owner, repo, head: "quorum/task-7", base: "main", title: "Again" }).catch((error: unknown) => error);
    expect(twin).toMatchObject({ name: "HttpError", status: 422 });
    expect(JSON.stringify((twin as { response: { data: unknown } }).response.data)).toContain(`A pull request already exists for ${owner}:quorum/task-7.`);

    const stranger = new Octokit({ auth: "ghp_wrong", baseUrl: standIn.apiUrl, log });
    const refused = await stranger.pulls.get({ owner, repo, pull_number: 1 }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 401, response: { data: { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" } } });
    expect(await statusOf(octokit.pulls.get({ owner, repo, pull_number: 99 }))).toBe(404);

    await standIn.addCheckRun({ owner, repo, ref: "quorum/task-7", name: "test", conclusion: "failure", summary: "2 tests failed" });
    await standIn.addCheckRun({ owner, repo, ref: "quorum/task-7", name: "test", conclusion: "success", summary: "all green" });
    await standIn.addCheckRun({ owner, repo, ref: "quorum/task-7", name: "lint", status: "in_progress" });
    const { data: checks } = await octokit.checks.listForRef({ owner, repo, ref: got.head.sha });
    expect(checks.total_count).toBe(2);
    expect(checks.check_runs.map((r) => [r.name, r.status, r.conclusion, r.output.summary])).toEqual([
      ["test", "completed", "success", "all green"],
      ["lint", "in_progress", null, null],
    ]);
    expect(checks.check_runs[0].pull_requests.map((p) => p.number)).toEqual([1]);
    const byBranch = await octokit.checks.listForRef({ owner, repo, ref: "heads/quorum/task-7", filter: "all", status: "completed" });
    expect(byBranch.data.total_count).toBe(2);

    await standIn.merge(owner, repo, 1);
    const { data: merged } = await octokit.pulls.get({ owner, repo, pull_number: 1 });
    expect(merged).toMatchObject({ merged: true, state: "closed" });
    expect(merged.merged_at).not.toBeNull();
    expect(await octokit.pulls.list({ owner, repo, head: `${owner}:quorum/task-7` }).then((r) => r.data)).toEqual([]);
    expect(await octokit.pulls.list({ owner, repo, state: "closed" }).then((r) => r.data.map((p) => p.number))).toEqual([1]);

    const { data: second } = await octokit.pulls.create({ owner, repo, head: "quorum/task-8", base: "main", title: "Task 8" });
    expect(second.number).toBe(2);
    const { data: closed } = await octokit.pulls.update({ owner, repo, pull_number: 2, state: "closed" });
    expect(closed).toMatchObject({ state: "closed", merged: false });

    const operations = (await standIn.requests()).map((r) => `${r.operationId} ${r.status}`);
    expect(operations).toContain("pulls/create 422");
    expect(operations).toContain("pulls/get 401");
    expect(operations).toContain("checks/list-for-ref 200");
    expect(await standIn.violations()).toEqual([]);
  });

  it("refuses a request GitHub's description forbids with 422, and records it as a violation", async () => {
    const before = (await standIn.violations()).length;
    const refused = await octokit
      .request("POST /repos/{owner}/{repo}/pulls", { owner, repo, base: "main", title: "No head" } as never)
      .catch((error: unknown) => error as { status: number; response: { data: { message: string } } });
    expect(refused).toMatchObject({ status: 422 });
    expect((refused as { response: { data: { message: string } } }).response.data.message).toContain(`"head" wasn't supplied.`);
    expect(await statusOf(octokit.request("GET /repos/{owner}/{repo}/pulls", { owner, repo, state: "merged" } as never))).toBe(422);

    const violations = (await standIn.violations()).slice(before);
    expect(violations.map((v) => [v.operationId, v.where, v.status])).toEqual([
      ["pulls/create", "request", 422],
      ["pulls/list", "request", 422],
    ]);
    expect(violations[0].errors).toContainEqual(expect.objectContaining({ keyword: "required", params: { missingProperty: "head" } }));
    expect(violations[1].errors).toContainEqual(expect.objectContaining({ instancePath: "/query/state", keyword: "enum" }));
  });

  it("answers 404 to a path that is no operation of GitHub's description, and records it", async () => {
    const before = (await standIn.violations()).length;
    const response = await fetch(`${standIn.apiUrl}/repos/${owner}/${repo}/pull-requests`, { headers: { authorization: `token ${TOKEN}` } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ message: "Not Found" });
    expect((await standIn.violations()).slice(before)).toEqual([expect.objectContaining({ where: "route", operationId: null, status: 404 })]);
  });
});

describe("the GitHub stand-in's reviews, check run logs, issues and webhooks", () => {
  const repo = "gadgets";
  const secret = "a webhook secret of the tests";
  /** The violations the tests above provoked on purpose: none may follow them. */
  let provoked = 0;
  const newViolations = async () => (await standIn.violations()).slice(provoked);

  beforeAll(async () => {
    receiverUrl = await startReceiver();
    provoked = (await standIn.violations()).length;
  });

  it("lists a review's line comments by review and on the pull request, and keeps the conversation's comments", async () => {
    const { data: pull } = await octokit.pulls.create({ owner, repo, head: "quorum/flight-3", base: "main", title: "Flight 3" });
    const first = await standIn.addReview(owner, repo, pull.number, {
      ...{ user: "reviewer", state: "CHANGES_REQUESTED", body: "Two things." },
      comments: [
        { path: "src/dates.ts", line: 12, body: "Use UTC here." },
        { path: "src/dates.test.ts", start_line: 3, line: 5, body: "These three lines test nothing." },
      ],
    });
    const second = await standIn.addReview(owner, repo, pull.number, { user: "reviewer", state: "APPROVED", body: "" });

    const { data: reviews } = await octokit.pulls.listReviews({ owner, repo, pull_number: pull.number });
    expect(reviews.map((r) => [r.id, r.user?.login, r.state, r.body, r.commit_id])).toEqual([
      [first.id, "reviewer", "CHANGES_REQUESTED", "Two things.", pull.head.sha],
      [second.id, "reviewer", "APPROVED", "", pull.head.sha],
    ]);
    const { data: comments } = await octokit.pulls.listCommentsForReview({ owner, repo, pull_number: pull.number, review_id: first.id });
    expect(comments.map((c) => [c.pull_request_review_id, c.path, c.start_line ?? null, c.line, c.body])).toEqual([
      [first.id, "src/dates.ts", null, 12, "Use UTC here."],
      [first.id, "src/dates.test.ts", 3, 5, "These three lines test nothing."],
    ]);
    expect(await octokit.pulls.listCommentsForReview({ owner, repo, pull_number: pull.number, review_id: second.id }).then((r) => r.data)).toEqual([]);
    expect(await statusOf(octokit.pulls.listCommentsForReview({ owner, repo, pull_number: pull.number, review_id: first.id + 99 }))).toBe(404);
    const { data: all } = await octokit.pulls.listReviewComments({ owner, repo, pull_number: pull.number });
    expect(all.map((c) => c.id)).toEqual(comments.map((c) => c.id));

    const { data: said, status } = await octokit.issues.createComment({ owner, repo, issue_number: pull.number, body: "Reworked: both fixed." });
    expect(status).toBe(201);
    expect(said).toMatchObject({ body: "Reworked: both fixed.", user: { login: "quorum-bot" } });
    expect(said.html_url).toBe(`${standIn.origin}/${owner}/${repo}/pull/${pull.number}#issuecomment-${said.id}`);
    const { data: listed } = await octokit.issues.listComments({ owner, repo, issue_number: pull.number });
    expect(listed.map((c) => c.body)).toEqual(["Reworked: both fixed."]);
    expect((await standIn.comments(owner, repo, pull.number)).map((c) => c.id)).toEqual([said.id]);
    expect(await octokit.pulls.get({ owner, repo, pull_number: pull.number }).then((r) => [r.data.comments, r.data.review_comments])).toEqual([1, 2]);
    expect(await statusOf(octokit.issues.createComment({ owner, repo, issue_number: 404, body: "nobody" }))).toBe(404);
    expect(await newViolations()).toEqual([]);
  });

  it("serves a check run's log and annotations", async () => {
    const log = "FAIL src/dates.test.ts\n  ✕ parses a leap day (3 ms)\n";
    const { id } = await standIn.addCheckRun({
      ...{ owner, repo, ref: "quorum/flight-3", name: "test", conclusion: "failure", summary: "1 test failed", text: log },
      annotations: [
        { path: "src/dates.test.ts", start_line: 14, end_line: 16, annotation_level: "failure", message: "expected 29, got 1", title: "parses a leap day" },
        { path: "src/dates.ts", start_line: 3, end_line: 3, annotation_level: "warning", message: "unused import" },
      ],
    });
    const { data: run } = await octokit.checks.get({ owner, repo, check_run_id: id });
    expect(run).toMatchObject({ id, name: "test", conclusion: "failure", output: { summary: "1 test failed", text: log, annotations_count: 2 } });
    const { data: annotations } = await octokit.checks.listAnnotations({ owner, repo, check_run_id: id });
    expect(annotations.map((a) => [a.path, a.start_line, a.end_line, a.annotation_level, a.title, a.message])).toEqual([
      ["src/dates.test.ts", 14, 16, "failure", "parses a leap day", "expected 29, got 1"],
      ["src/dates.ts", 3, 3, "warning", null, "unused import"],
    ]);
    const plain = await standIn.addCheckRun({ owner, repo, ref: "quorum/flight-3", name: "lint" });
    expect(await octokit.checks.get({ owner, repo, check_run_id: plain.id }).then((r) => [r.data.output.annotations_count, r.data.output.text])).toEqual([0, null]);
    expect(await statusOf(octokit.checks.get({ owner, repo: "widgets", check_run_id: id }))).toBe(404);
    expect(await newViolations()).toEqual([]);
  });

  it("lists issues by label with the pull requests among them, and closes the issue a merged pull request says it closes", async () => {
    const bug = await standIn.addIssue({ owner, repo, title: "Leap days", body: "29 February parses as 1 March.", labels: ["bug", "quorum"], user: "reporter" });
    const idea = await standIn.addIssue({ owner, repo, title: "Dark mode", body: "Please.", labels: ["idea"] });
    expect(bug.number).toBe(2); // after the pull request #1 of this repository: one sequence for both
    await standIn.labelIssue(owner, repo, idea.number, "quorum");

    const numbers = async (labels?: string, state?: "open" | "closed" | "all") =>
      (await octokit.issues.listForRepo({ owner, repo, labels, state })).data.map((i) => [i.number, i.pull_request ? "pull" : "issue"]);
    expect(await numbers("quorum")).toEqual([
      [idea.number, "issue"],
      [bug.number, "issue"],
    ]);
    expect(await numbers("bug,quorum")).toEqual([[bug.number, "issue"]]);
    expect(await numbers()).toEqual([
      [idea.number, "issue"],
      [bug.number, "issue"],
      [1, "pull"],
    ]);
    const { data: got } = await octokit.issues.get({ owner, repo, issue_number: bug.number });
    expect(got).toMatchObject({ state: "open", user: { login: "reporter" }, labels: [{ name: "bug" }, { name: "quorum" }] });

    const { data: fix } = await octokit.pulls.create({ owner, repo, head: "quorum/flight-4", base: "main", title: "Leap days", body: "Parses them.\n\ncloses #2" });
    const { data: elsewhere } = await octokit.pulls.create({ owner, repo, head: "quorum/flight-5", base: "next", title: "Dark mode", body: `Fixes #${idea.number}` });
    expect((await standIn.merge(owner, repo, fix.number)).closed_issues).toEqual([bug.number]);
    // Only a merge into the default branch closes issues, as on GitHub.
    expect((await standIn.merge(owner, repo, elsewhere.number)).closed_issues).toEqual([]);
    expect(await standIn.issue(owner, repo, bug.number)).toMatchObject({ state: "closed", state_reason: "completed", closed_by: { login: "quorum-bot" } });
    expect(await standIn.issue(owner, repo, idea.number)).toMatchObject({ state: "open", state_reason: null });
    expect(await numbers("quorum", "closed")).toEqual([[bug.number, "issue"]]);

    const { data: closed } = await octokit.issues.update({ owner, repo, issue_number: idea.number, state: "closed", state_reason: "not_planned" });
    expect(closed).toMatchObject({ state: "closed", state_reason: "not_planned" });
    expect(await statusOf(octokit.issues.get({ owner, repo, issue_number: 99 }))).toBe(404);
    expect(await newViolations()).toEqual([]);
  });

  it("delivers webhooks signed with the hook's secret, records them, and redelivers one with its delivery id", async () => {
    const hook = await standIn.addHook({ url: `${receiverUrl}/hooks/all`, secret, owner, repo });
    expect(hook.deliveries).toEqual([expect.objectContaining({ event: "ping", status: 202 })]);
    const onlyChecks = await standIn.addHook({ url: `${receiverUrl}/status/500`, secret: "another secret", events: ["check_run"] });
    expect(onlyChecks.deliveries.map((d) => [d.event, d.status])).toEqual([["ping", 500]]);

    const { data: pull } = await octokit.pulls.create({ owner, repo, head: "quorum/flight-6", base: "main", title: "Flight 6", body: "Resolves #7" });
    const issue = await standIn.addIssue({ owner, repo, title: "Crash on start", labels: ["bug"], user: "reporter" });
    expect(issue.number).toBe(7);
    expect(issue.deliveries.map((d) => [d.event, d.action, d.status])).toEqual([
      ["issues", "opened", 202],
      ["issues", "labeled", 202],
    ]);
    const labelled = await standIn.labelIssue(owner, repo, issue.number, "urgent", "triager");
    expect(labelled).toMatchObject({ labels: ["bug", "urgent"], deliveries: [{ event: "issues", action: "labeled", status: 202 }] });
    const review = await standIn.addReview(owner, repo, pull.number, {
      user: "reviewer",
      state: "CHANGES_REQUESTED",
      body: "Not yet.",
      comments: [{ path: "a.ts", line: 1, body: "Why?" }],
    });
    expect(review.deliveries.map((d) => [d.event, d.action])).toEqual([["pull_request_review", "submitted"]]);
    const check = await standIn.addCheckRun({ owner, repo, ref: "quorum/flight-6", name: "test", conclusion: "failure", text: "1 failed" });
    expect(check.deliveries.map((d) => [d.event, d.action, d.status])).toEqual([
      ["check_run", "completed", 202],
      ["check_run", "completed", 500],
    ]);
    expect((await standIn.addCheckRun({ owner, repo, ref: "quorum/flight-6", name: "lint", status: "in_progress" })).deliveries).toEqual([]);
    const merged = await standIn.merge(owner, repo, pull.number);
    expect(merged.deliveries.map((d) => [d.event, d.action])).toEqual([
      ["pull_request", "closed"],
      ["issues", "closed"],
    ]);

    const got = received.filter((r) => r.path === "/hooks/all");
    const events = got.map((r) => [r.headers["x-github-event"], (JSON.parse(r.body) as { action?: string }).action ?? null]);
    expect(events).toEqual([
      ["ping", null],
      ["issues", "opened"],
      ["issues", "labeled"],
      ["issues", "labeled"],
      ["pull_request_review", "submitted"],
      ["check_run", "completed"],
      ["pull_request", "closed"],
      ["issues", "closed"],
    ]);
    const webhooks = new Webhooks({ secret });
    const impostor = new Webhooks({ secret: "not the secret" });
    for (const delivery of got) {
      const signature = String(delivery.headers["x-hub-signature-256"]);
      expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(await webhooks.verify(delivery.body, signature)).toBe(true);
      expect(await impostor.verify(delivery.body, signature)).toBe(false);
      expect(delivery.headers).toMatchObject({ "content-type": "application/json", "user-agent": "GitHub-Hookshot/stand-in", "x-github-hook-id": String(hook.id) });
      expect(delivery.headers["x-github-delivery"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(new Set(got.map((r) => r.headers["x-github-delivery"])).size).toBe(got.length);
    expect(await webhooks.verify(`${got[1].body} `, String(got[1].headers["x-hub-signature-256"]))).toBe(false);

    const payload = (index: number) => JSON.parse(got[index].body) as Record<string, unknown>;
    expect(payload(2)).toMatchObject({
      issue: { number: 7, labels: [{ name: "bug" }] },
      label: { name: "bug" },
      repository: { full_name: `${owner}/${repo}` },
      sender: { login: "reporter" },
    });
    expect(payload(3)).toMatchObject({ label: { name: "urgent" }, sender: { login: "triager" } });
    expect(payload(4)).toMatchObject({
      review: { id: review.id, state: "changes_requested", body: "Not yet." },
      pull_request: { number: pull.number },
      sender: { login: "reviewer" },
    });
    expect(payload(5)).toMatchObject({ check_run: { id: check.id, conclusion: "failure", output: { text: "1 failed" }, pull_requests: [{ number: pull.number }] } });
    expect(payload(6)).toMatchObject({ number: pull.number, pull_request: { merged: true, state: "closed" } });
    expect(payload(7)).toMatchObject({ issue: { number: 7, state: "closed", state_reason: "completed" } });
    for (const index of [1, 2, 4, 5, 6, 7]) expect(payload(index)).not.toHaveProperty("installation");

    const recorded = await standIn.deliveries();
    const labeledDelivery = recorded.find((d) => d.guid === got[2].headers["x-github-delivery"])!;
    expect(labeledDelivery).toMatchObject({ event: "issues", action: "labeled", url: `${receiverUrl}/hooks/all`, status: 202, redelivery: false, body: got[2].body });
    expect(await standIn.redeliver(labeledDelivery.id)).toBe(202);
    const replay = received.at(-1)!;
    expect(replay.headers["x-github-delivery"]).toBe(labeledDelivery.guid);
    expect(replay.body).toBe(got[2].body);
    expect(await webhooks.verify(replay.body, String(replay.headers["x-hub-signature-256"]))).toBe(true);
    expect((await standIn.deliveries()).at(-1)).toMatchObject({ guid: labeledDelivery.guid, redelivery: true, status: 202 });
    expect(received.filter((r) => r.path === "/status/500").map((r) => r.headers["x-github-event"])).toEqual(["ping", "check_run"]);
    expect(await newViolations()).toEqual([]);
  });
});
