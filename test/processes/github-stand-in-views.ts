// The GitHub stand-in's memory and how GitHub shows it: the records the process keeps (pull requests, issues, reviews,
// comments, check runs) and their JSON views, shaped as GitHub's REST API answers. GitHub builds its webhook payloads
// from the same representations, so the REST handlers, the test controls and the webhook deliveries all read this one
// module rather than each keeping a copy of the state or of the shapes.
import { createHash } from "node:crypto";
import type { AnnotationInput, CheckRunInput, ReviewInput } from "../fixtures/github-stand-in";

export interface Pull {
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
  labels: string[];
  state: "open" | "closed";
  merged: boolean;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  mergedAt: string | null;
}

export interface Issue {
  owner: string;
  repo: string;
  number: number;
  title: string;
  body: string | null;
  user: string;
  labels: string[];
  state: "open" | "closed";
  stateReason: "completed" | "not_planned" | "reopened" | "duplicate" | null;
  closedBy: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

export interface Review {
  id: number;
  owner: string;
  repo: string;
  number: number;
  user: string;
  state: ReviewInput["state"];
  body: string;
  /** The head the review was given on: GitHub ties a review to the commit it saw. */
  commitId: string;
  submittedAt: string;
}

export interface ReviewComment {
  id: number;
  reviewId: number;
  owner: string;
  repo: string;
  number: number;
  user: string;
  path: string;
  line: number;
  startLine: number | null;
  body: string;
  commitId: string;
  createdAt: string;
}

export interface IssueComment {
  id: number;
  owner: string;
  repo: string;
  number: number;
  user: string;
  body: string;
  createdAt: string;
}

export interface CheckRun extends Required<Omit<CheckRunInput, "ref" | "title" | "summary" | "text" | "annotations">> {
  id: number;
  headSha: string;
  title: string | null;
  summary: string | null;
  text: string | null;
  annotations: AnnotationInput[];
  startedAt: string;
}

export const store = {
  pulls: [] as Pull[],
  issues: [] as Issue[],
  reviews: [] as Review[],
  reviewComments: [] as ReviewComment[],
  comments: [] as IssueComment[],
  checkRuns: [] as CheckRun[],
};

/** The account the token belongs to: the author of every pull request and comment it makes. */
export const LOGIN = "quorum-bot";
const site = { origin: "" };
const ids = new Map<string, number>();

/** Set once the server listens: every URL in a view is built from the port it got. */
export function setOrigin(origin: string): void {
  site.origin = origin;
}
export const origin = () => site.origin;
export const api = () => `${site.origin}/api/v3`;
export const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
const bootedAt = now();

export const inRepo =
  (owner: string, repo: string) =>
  (item: { owner: string; repo: string }): boolean =>
    item.owner === owner && item.repo === repo;

/** Issues and pull requests of a repository share one sequence of numbers, as on GitHub. */
export function nextNumber(owner: string, repo: string): number {
  return Math.max(0, ...[...store.pulls, ...store.issues].filter(inRepo(owner, repo)).map((item) => item.number)) + 1;
}

/** A stable id per thing named (a user, a repository, an issue): GitHub's ids never change. */
export function idOf(key: string): number {
  if (!ids.has(key)) ids.set(key, ids.size + 1);
  return ids.get(key)!;
}

/** There is no git behind the stand-in: a branch's head is a SHA derived from its name. */
export function shaOf(owner: string, repo: string, branch: string): string {
  return createHash("sha1").update(`${owner}/${repo}:${branch}`).digest("hex");
}

/** A ref names a commit by its SHA or a branch (`main`, `heads/main`, `refs/heads/main`). */
export function refSha(owner: string, repo: string, ref: string): string {
  return /^[0-9a-f]{40}$/.test(ref) ? ref : shaOf(owner, repo, ref.replace(/^(refs\/)?heads\//, ""));
}

/** A page of a list, by the `per_page` and `page` GitHub's list operations take. */
export function pageOf<T>(items: T[], query: { per_page?: number; page?: number }): T[] {
  const perPage = Math.min(query.per_page ?? 30, 100);
  const page = query.page ?? 1;
  return items.slice((page - 1) * perPage, page * perPage);
}

/** A resource's `*_url` fields from a list of `key` (the path is the key) or `key=path`, as GitHub writes them under its API URL. */
function urlsOf(base: string, spec: string): Record<string, string> {
  return Object.fromEntries(spec.split(" ").map((entry) => [`${entry.split("=")[0].replace(/\{.*$/, "")}_url`, `${base}/${entry.split("=").at(-1)}`]));
}

/** A `[bot]` login is an app's account, which GitHub types as a Bot. */
export function user(login: string) {
  const id = idOf(`user:${login}`);
  const url = `${api()}/users/${login}`;
  const links = "followers following{/other_user} gists{/gist_id} starred{/owner}{/repo} subscriptions organizations=orgs repos events{/privacy} received_events";
  return {
    ...{ login, id, node_id: `U_kgDO${id}`, avatar_url: `${site.origin}/avatars/u/${id}`, gravatar_id: "", url, html_url: `${site.origin}/${login}` },
    ...{ ...urlsOf(url, links), type: login.endsWith("[bot]") ? "Bot" : "User", site_admin: false },
  };
}

/** How GitHub relates an author to a repository: its owner, the token's account (which opened the pull requests), or a collaborator. */
function association(login: string, owner: string) {
  return login === owner ? "OWNER" : login === LOGIN ? "CONTRIBUTOR" : "COLLABORATOR";
}

const noReactions = (url: string) => ({ url, total_count: 0, "+1": 0, "-1": 0, laugh: 0, confused: 0, heart: 0, hooray: 0, eyes: 0, rocket: 0 });

const REPOSITORY_URLS = [
  "archive={archive_format}{/ref} assignees{/user} blobs=git/blobs{/sha} branches{/branch} collaborators{/collaborator} comments{/number} commits{/sha}",
  "compare=compare/{base}...{head} contents=contents/{+path} contributors deployments downloads events forks git_commits=git/commits{/sha} git_refs=git/refs{/sha}",
  "git_tags=git/tags{/sha} hooks issue_comment=issues/comments{/number} issue_events=issues/events{/number} issues{/number} keys{/key_id} labels{/name}",
  "languages merges milestones{/number} notifications{?since,all,participating} pulls{/number} releases{/id} stargazers statuses=statuses/{sha}",
  "subscribers subscription tags teams trees=git/trees{/sha}",
].join(" ");

export function repository(owner: string, name: string) {
  const id = idOf(`repo:${owner}/${name}`);
  const url = `${api()}/repos/${owner}/${name}`;
  const openIssues = [...store.pulls, ...store.issues].filter((item) => inRepo(owner, name)(item) && item.state === "open").length;
  const html = `${site.origin}/${owner}/${name}`;
  return {
    ...{ id, node_id: `R_kgDO${id}`, name, full_name: `${owner}/${name}`, owner: user(owner), private: false, html_url: html, description: null, fork: false, url },
    ...urlsOf(url, REPOSITORY_URLS),
    ...{ git_url: `git://${site.origin.replace(/^http:\/\//, "")}/${owner}/${name}.git`, ssh_url: `git@127.0.0.1:${owner}/${name}.git`, clone_url: `${html}.git`, svn_url: html },
    ...{ mirror_url: null, homepage: null, language: null, default_branch: "main", visibility: "public", license: null },
    ...{ forks: 0, forks_count: 0, stargazers_count: 0, watchers: 0, watchers_count: 0, size: 0, open_issues: openIssues, open_issues_count: openIssues },
    ...{ has_issues: true, has_projects: true, has_wiki: true, has_pages: false, has_downloads: true, has_discussions: false, archived: false, disabled: false },
    topics: [],
    ...{ pushed_at: bootedAt, created_at: bootedAt, updated_at: bootedAt },
  };
}

/** A label exists in a repository as soon as something carries it; its colour is derived from its name, as it never changes. */
export function labelView(owner: string, repo: string, name: string) {
  const id = idOf(`label:${owner}/${repo}:${name}`);
  const color = createHash("sha1").update(name).digest("hex").slice(0, 6);
  return { id, node_id: `LA_kwDO${id}`, url: `${api()}/repos/${owner}/${repo}/labels/${encodeURIComponent(name)}`, name, description: null, color, default: false };
}

export function pullView(pull: Pull) {
  const { owner, repo, number } = pull;
  const url = `${api()}/repos/${owner}/${repo}/pulls/${number}`;
  const issue = `${api()}/repos/${owner}/${repo}/issues/${number}`;
  const html = `${site.origin}/${owner}/${repo}/pull/${number}`;
  const statuses = `${api()}/repos/${owner}/${repo}/statuses/${shaOf(pull.headOwner, repo, pull.head)}`;
  const reviewComment = `${api()}/repos/${owner}/${repo}/pulls/comments{/number}`;
  const side = (login: string, ref: string) => ({ label: `${login}:${ref}`, ref, sha: shaOf(login, repo, ref), user: user(login), repo: repository(login, repo) });
  const links = { self: url, html, issue, comments: `${issue}/comments`, review_comments: `${url}/comments`, review_comment: reviewComment, commits: `${url}/commits`, statuses };
  const open = pull.state === "open";
  const onThis = (item: { owner: string; repo: string; number: number }) => inRepo(owner, repo)(item) && item.number === number;
  return {
    ...{ url, id: pull.id, node_id: `PR_kwDO${pull.id}`, html_url: html, diff_url: `${html}.diff`, patch_url: `${html}.patch`, issue_url: issue, commits_url: `${url}/commits` },
    ...{ review_comments_url: `${url}/comments`, review_comment_url: reviewComment, comments_url: `${issue}/comments`, statuses_url: statuses },
    ...{ number, state: pull.state, locked: false, title: pull.title, user: user(LOGIN), body: pull.body, draft: pull.draft, author_association: "CONTRIBUTOR" },
    ...{ created_at: pull.createdAt, updated_at: pull.updatedAt, closed_at: pull.closedAt, merged_at: pull.mergedAt },
    ...{ labels: pull.labels.map((name) => labelView(owner, repo, name)), milestone: null, active_lock_reason: null, assignee: null, assignees: [] },
    ...{ requested_reviewers: [], requested_teams: [], auto_merge: null },
    head: side(pull.headOwner, pull.head),
    base: side(owner, pull.base),
    _links: Object.fromEntries(Object.entries(links).map(([name, href]) => [name, { href }])),
    ...{ merged: pull.merged, merge_commit_sha: pull.merged ? shaOf(owner, repo, `merge-${number}`) : null, merged_by: pull.merged ? user(LOGIN) : null },
    ...{ mergeable: open ? true : null, rebaseable: open ? true : null, mergeable_state: !open ? "unknown" : pull.draft ? "draft" : "clean" },
    ...{ comments: store.comments.filter(onThis).length, review_comments: store.reviewComments.filter(onThis).length },
    ...{ maintainer_can_modify: pull.maintainerCanModify, commits: 1, additions: 0, deletions: 0, changed_files: 0 },
  };
}

/** A pull request as a list shows it (GitHub's `pull-request-simple`): without the counts and merge state of a single one. */
export function simpleView(pull: Pull) {
  const { merged: _m, mergeable: _a, rebaseable: _r, mergeable_state: _s, merged_by: _b, comments: _c, review_comments: _v, maintainer_can_modify: _x, ...simple } = pullView(pull);
  const { commits: _n, additions: _p, deletions: _d, changed_files: _f, ...rest } = simple;
  return rest;
}

/** An issue, or a pull request seen as the issue every pull request also is (with a `pull_request` key, as the issues endpoints list it). */
export function issueView(item: Issue | Pull) {
  const { owner, repo, number } = item;
  const pull = "head" in item ? item : null;
  const id = idOf(`issue:${owner}/${repo}#${number}`);
  const url = `${api()}/repos/${owner}/${repo}/issues/${number}`;
  const html = `${site.origin}/${owner}/${repo}/${pull ? "pull" : "issues"}/${number}`;
  const author = pull ? LOGIN : (item as Issue).user;
  const closedBy = pull ? (pull.merged ? LOGIN : null) : (item as Issue).closedBy;
  const comments = store.comments.filter((c) => inRepo(owner, repo)(c) && c.number === number).length;
  return {
    ...{ id, node_id: `I_kwDO${id}`, url, repository_url: `${api()}/repos/${owner}/${repo}`, labels_url: `${url}/labels{/name}`, comments_url: `${url}/comments` },
    ...{ events_url: `${url}/events`, html_url: html, timeline_url: `${url}/timeline`, number, title: item.title, body: item.body, user: user(author) },
    ...{ state: item.state, state_reason: pull ? null : (item as Issue).stateReason, labels: item.labels.map((name) => labelView(owner, repo, name)) },
    ...{ assignee: null, assignees: [], milestone: null, locked: false, active_lock_reason: null, comments, author_association: association(author, owner) },
    ...{
      created_at: item.createdAt,
      updated_at: item.updatedAt,
      closed_at: item.closedAt,
      closed_by: closedBy ? user(closedBy) : null,
      reactions: noReactions(`${url}/reactions`),
    },
    ...(pull
      ? {
          draft: pull.draft,
          pull_request: { url: `${api()}/repos/${owner}/${repo}/pulls/${number}`, html_url: html, diff_url: `${html}.diff`, patch_url: `${html}.patch`, merged_at: pull.mergedAt },
        }
      : {}),
  };
}

export function issueCommentView(comment: IssueComment) {
  const { owner, repo, number, id } = comment;
  const kind = store.pulls.some((p) => inRepo(owner, repo)(p) && p.number === number) ? "pull" : "issues";
  const url = `${api()}/repos/${owner}/${repo}/issues/comments/${id}`;
  return {
    ...{ id, node_id: `IC_kwDO${id}`, url, html_url: `${site.origin}/${owner}/${repo}/${kind}/${number}#issuecomment-${id}`, body: comment.body, user: user(comment.user) },
    ...{ created_at: comment.createdAt, updated_at: comment.createdAt, issue_url: `${api()}/repos/${owner}/${repo}/issues/${number}` },
    ...{ author_association: association(comment.user, owner), reactions: noReactions(`${url}/reactions`) },
  };
}

const pullUrls = (item: { owner: string; repo: string; number: number }) => ({
  api: `${api()}/repos/${item.owner}/${item.repo}/pulls/${item.number}`,
  html: `${site.origin}/${item.owner}/${item.repo}/pull/${item.number}`,
});

/** A review as the REST API shows it; its webhook payload writes the state in lower case, as GitHub's does. */
export function reviewView(review: Review) {
  const { api: pullUrl, html } = pullUrls(review);
  const htmlUrl = `${html}#pullrequestreview-${review.id}`;
  return {
    ...{ id: review.id, node_id: `PRR_kwDO${review.id}`, user: user(review.user), body: review.body, state: review.state, html_url: htmlUrl, pull_request_url: pullUrl },
    ...{ _links: { html: { href: htmlUrl }, pull_request: { href: pullUrl } }, submitted_at: review.submittedAt, commit_id: review.commitId },
    author_association: association(review.user, review.owner),
  };
}

/** There is no diff behind the stand-in: a comment's hunk is the header of the lines it covers. */
export function reviewCommentView(comment: ReviewComment) {
  const { api: pullUrl, html } = pullUrls(comment);
  const url = `${api()}/repos/${comment.owner}/${comment.repo}/pulls/comments/${comment.id}`;
  const htmlUrl = `${html}#discussion_r${comment.id}`;
  const first = comment.startLine ?? comment.line;
  const span = comment.line - first + 1;
  return {
    ...{ url, pull_request_review_id: comment.reviewId, id: comment.id, node_id: `PRRC_kwDO${comment.id}`, diff_hunk: `@@ -${first},${span} +${first},${span} @@` },
    ...{ path: comment.path, position: comment.line, original_position: comment.line, commit_id: comment.commitId, original_commit_id: comment.commitId },
    ...{ user: user(comment.user), body: comment.body, created_at: comment.createdAt, updated_at: comment.createdAt, html_url: htmlUrl, pull_request_url: pullUrl },
    ...{ author_association: association(comment.user, comment.owner), _links: { self: { href: url }, html: { href: htmlUrl }, pull_request: { href: pullUrl } } },
    ...{ reactions: noReactions(`${url}/reactions`), start_line: comment.startLine, original_start_line: comment.startLine, start_side: comment.startLine ? "RIGHT" : null },
    ...{ line: comment.line, original_line: comment.line, side: "RIGHT", subject_type: "line" },
  };
}

export function checkRunView(run: CheckRun) {
  const url = `${api()}/repos/${run.owner}/${run.repo}/check-runs/${run.id}`;
  const html = `${site.origin}/${run.owner}/${run.repo}/runs/${run.id}`;
  const mini = (owner: string, ref: string) => ({
    ref,
    sha: shaOf(owner, run.repo, ref),
    repo: { id: idOf(`repo:${owner}/${run.repo}`), url: `${api()}/repos/${owner}/${run.repo}`, name: run.repo },
  });
  return {
    ...{ id: run.id, node_id: `CR_kwDO${run.id}`, head_sha: run.headSha, external_id: "", url, html_url: html, details_url: html, name: run.name },
    ...{ status: run.status, conclusion: run.conclusion, started_at: run.startedAt, completed_at: run.status === "completed" ? run.startedAt : null },
    output: { title: run.title, summary: run.summary, text: run.text, annotations_count: run.annotations.length, annotations_url: `${url}/annotations` },
    check_suite: { id: idOf(`suite:${run.owner}/${run.repo}@${run.headSha}`) },
    app: {
      ...{ id: 15368, slug: "github-actions", node_id: "MDM6QXBwMTUzNjg=", owner: user("github"), name: "GitHub Actions", description: "Automate your workflow" },
      ...{ external_url: "https://help.github.com/en/actions", html_url: `${site.origin}/apps/github-actions`, created_at: bootedAt, updated_at: bootedAt },
      ...{ permissions: { checks: "write", metadata: "read", pull_requests: "write" }, events: ["check_run", "pull_request"] },
    },
    pull_requests: store.pulls
      .filter((p) => inRepo(run.owner, run.repo)(p) && p.state === "open" && shaOf(p.headOwner, p.repo, p.head) === run.headSha)
      .map((p) => ({ id: p.id, number: p.number, url: pullUrls(p).api, head: mini(p.headOwner, p.head), base: mini(p.owner, p.base) })),
  };
}

export function annotationView(run: CheckRun, annotation: AnnotationInput) {
  const { path, start_line, end_line, annotation_level, message } = annotation;
  return {
    ...{ path, blob_href: `${site.origin}/${run.owner}/${run.repo}/blob/${run.headSha}/${path}`, start_line, end_line, start_column: null, end_column: null },
    ...{ annotation_level, title: annotation.title ?? null, message, raw_details: null },
  };
}
