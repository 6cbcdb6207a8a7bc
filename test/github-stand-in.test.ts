// The GitHub stand-in proved with the client Quorum will use (@octokit/rest): every call it makes is answered as
// GitHub would, and neither its requests nor the stand-in's responses break GitHub's own OpenAPI description.
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
});

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
