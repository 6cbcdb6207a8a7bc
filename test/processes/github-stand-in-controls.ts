// The GitHub stand-in's test-only controls, under /_stand-in/ where no GitHub client would look: what a person, CI or
// GitHub itself does on the forge (merge a pull request, review it, finish a check run, open or label an issue, register
// a webhook) and what a test reads back. A control after which GitHub sends webhooks answers only once every delivery
// was answered, with the statuses, so a test reads the outcome without waiting or polling.
import type { AnnotationInput, CheckRunInput, DeliveryOutcome, HookInput, IssueInput, ReviewInput, SeenRequest, Violation } from "../fixtures/github-stand-in";
import {
  type CheckRun,
  checkRunView,
  inRepo,
  type Issue,
  issueCommentView,
  issueView,
  LOGIN,
  labelView,
  nextNumber,
  now,
  type Pull,
  pullView,
  type Review,
  refSha,
  repository,
  reviewView,
  shaOf,
  simpleView,
  store,
  user,
} from "./github-stand-in-views";
import type { Hookshot } from "./github-stand-in-webhooks";

/** The webhooks the controls can cause, as `event.action`: their schemas are compiled at start. */
export const WEBHOOK_EVENTS = ["ping", "pull_request_review.submitted", "check_run.completed", "issues.opened", "issues.labeled", "issues.closed", "pull_request.closed"];

export interface ControlContext {
  hookshot: Hookshot;
  requests: SeenRequest[];
  violations: Violation[];
}

type Reply = [number, unknown];
type Input = Record<string, unknown>;
type Route = (params: string[], input: Input, context: ControlContext) => Reply | Promise<Reply>;

const REVIEW_STATES = ["CHANGES_REQUESTED", "APPROVED", "COMMENTED"];
const ANNOTATION_LEVELS = ["failure", "warning", "notice"];
/** The account GitHub Actions acts as: the sender of its check runs' webhooks. */
const ACTIONS_BOT = "github-actions[bot]";
/** GitHub's closing keywords (`Closes #4`, `fixes: acme/widgets#4`), which close an issue when the pull request merges into the default branch. */
const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\s+(?:([\w.-]+)\/([\w.-]+))?#(\d+)\b/gi;

const isText = (value: unknown): value is string => typeof value === "string" && value !== "";
const isLine = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;
const notFound: Reply = [404, { message: "Not Found" }];
const refused = (message: string): Reply => [400, { message }];

const findPull = (owner: string, repo: string, number: number) => store.pulls.find((p) => inRepo(owner, repo)(p) && p.number === number);
const findIssue = (owner: string, repo: string, number: number) => store.issues.find((i) => inRepo(owner, repo)(i) && i.number === number);

const routes: [string, RegExp, Route][] = [
  ["GET", /^\/_stand-in\/requests$/, (_, __, context) => [200, context.requests]],
  ["GET", /^\/_stand-in\/violations$/, (_, __, context) => [200, context.violations]],
  ["GET", /^\/_stand-in\/deliveries$/, (_, __, context) => [200, context.hookshot.deliveries]],
  ["POST", /^\/_stand-in\/deliveries\/(\d+)\/redeliver$/, redeliver],
  ["POST", /^\/_stand-in\/hooks$/, addHook],
  ["POST", /^\/_stand-in\/pulls\/([^/]+)\/([^/]+)\/(\d+)\/merge$/, merge],
  ["POST", /^\/_stand-in\/pulls\/([^/]+)\/([^/]+)\/(\d+)\/reviews$/, addReview],
  ["POST", /^\/_stand-in\/check-runs$/, addCheckRun],
  ["POST", /^\/_stand-in\/issues$/, addIssue],
  ["POST", /^\/_stand-in\/issues\/([^/]+)\/([^/]+)\/(\d+)\/labels$/, labelIssue],
  ["GET", /^\/_stand-in\/issues\/([^/]+)\/([^/]+)\/(\d+)$/, readIssue],
  ["GET", /^\/_stand-in\/issues\/([^/]+)\/([^/]+)\/(\d+)\/comments$/, readComments],
];

/** Answers a control request: its status and JSON body. */
export async function control(method: string, path: string, raw: string, context: ControlContext): Promise<Reply> {
  for (const [wanted, pattern, route] of routes) {
    const match = pattern.exec(path);
    if (method !== wanted || !match) continue;
    let input: Input;
    try {
      input = raw === "" ? {} : (JSON.parse(raw) as Input);
    } catch {
      return refused("the body is not JSON");
    }
    return route(match.slice(1).map(decodeURIComponent), input, context);
  }
  return [404, { message: `no control ${method} ${path}` }];
}

async function redeliver([id]: string[], _: Input, { hookshot }: ControlContext): Promise<Reply> {
  const outcome = await hookshot.redeliver(Number(id));
  return outcome ? [200, outcome] : notFound;
}

async function addHook(_: string[], input: Input, { hookshot }: ControlContext): Promise<Reply> {
  const hook = input as Partial<HookInput>;
  if (!isText(hook.url) || !URL.canParse(hook.url)) return refused("url must be an absolute URL");
  if (hook.secret !== undefined && typeof hook.secret !== "string") return refused("secret must be a string");
  if (hook.events !== undefined && !(Array.isArray(hook.events) && hook.events.every(isText))) return refused("events must be a list of event names");
  if ((hook.owner === undefined) !== (hook.repo === undefined)) return refused("owner and repo go together");
  return [201, await hookshot.register(hook as HookInput)];
}

/** Merges as a merge on the forge would: the pull request closes, and so does each issue its body says it closes. */
async function merge([owner, repo, number]: string[], _: Input, { hookshot }: ControlContext): Promise<Reply> {
  const pull = findPull(owner, repo, Number(number));
  if (!pull) return notFound;
  if (pull.merged) return [200, { merged: true, closed_issues: [], deliveries: [] }];
  const at = now();
  Object.assign(pull, { state: "closed", merged: true, mergedAt: at, closedAt: at, updatedAt: at });
  const deliveries = await hookshot.announce("pull_request", { action: "closed", number: pull.number, pull_request: pullView(pull), ...about(owner, repo, LOGIN) }, owner, repo);
  const closed = pull.base === repository(owner, repo).default_branch ? closedByBody(pull) : [];
  for (const issue of closed) {
    Object.assign(issue, { state: "closed", stateReason: "completed", closedAt: at, closedBy: LOGIN, updatedAt: at });
    deliveries.push(...(await hookshot.announce("issues", { action: "closed", issue: issueView(issue), ...about(issue.owner, issue.repo, LOGIN) }, issue.owner, issue.repo)));
  }
  return [200, { merged: true, closed_issues: closed.map((issue) => issue.number), deliveries }];
}

/** The open issues (not pull requests) a pull request's body names after a closing keyword. */
function closedByBody(pull: Pull): Issue[] {
  const named = [...(pull.body ?? "").matchAll(CLOSING)].map(([, owner, repo, number]) => findIssue(owner ?? pull.owner, repo ?? pull.repo, Number(number)));
  return [...new Set(named)].filter((issue): issue is Issue => issue?.state === "open");
}

async function addReview([owner, repo, number]: string[], input: Input, { hookshot }: ControlContext): Promise<Reply> {
  const pull = findPull(owner, repo, Number(number));
  if (!pull) return notFound;
  const given = input as Partial<ReviewInput>;
  if (!isText(given.user) || !REVIEW_STATES.includes(String(given.state)) || typeof given.body !== "string")
    return refused(`user, state (${REVIEW_STATES.join(", ")}) and body are required`);
  const comments = given.comments ?? [];
  const wrong = Array.isArray(comments)
    ? comments.findIndex((c) => !isText(c?.path) || !isLine(c.line) || !isText(c.body) || (c.start_line !== undefined && !(isLine(c.start_line) && c.start_line < c.line)))
    : 0;
  if (wrong >= 0) return refused(`comments[${wrong}] needs a path, a line, a body, and a start_line before its line if any`);
  const at = now();
  const review: Review = {
    ...{ id: 5_000_000 + store.reviews.length + 1, owner, repo, number: pull.number, user: given.user, state: given.state as Review["state"], body: given.body },
    ...{ commitId: shaOf(pull.headOwner, repo, pull.head), submittedAt: at },
  };
  store.reviews.push(review);
  for (const comment of comments) {
    store.reviewComments.push({
      ...{ id: 6_000_000 + store.reviewComments.length + 1, reviewId: review.id, owner, repo, number: pull.number, user: review.user, path: comment.path },
      ...{ line: comment.line, startLine: comment.start_line ?? null, body: comment.body, commitId: review.commitId, createdAt: at },
    });
  }
  pull.updatedAt = at;
  // The webhook writes a review's state in lower case, unlike the REST API.
  const payload = { action: "submitted", review: { ...reviewView(review), state: review.state.toLowerCase() }, pull_request: simpleView(pull), ...about(owner, repo, review.user) };
  return [201, { id: review.id, deliveries: await hookshot.announce("pull_request_review", payload, owner, repo) }];
}

function annotationError(annotations: unknown): string | null {
  if (annotations === undefined) return null;
  if (!Array.isArray(annotations)) return "annotations must be a list";
  const wrong = annotations.findIndex(
    (a: Partial<AnnotationInput>) =>
      !isText(a?.path) ||
      !isLine(a.start_line) ||
      !isLine(a.end_line) ||
      a.end_line < a.start_line ||
      !ANNOTATION_LEVELS.includes(String(a.annotation_level)) ||
      !isText(a.message) ||
      (a.title !== undefined && typeof a.title !== "string"),
  );
  return wrong < 0 ? null : `annotations[${wrong}] needs a path, start_line ≤ end_line, an annotation_level (${ANNOTATION_LEVELS.join(", ")}) and a message`;
}

async function addCheckRun(_: string[], input: Input, { hookshot }: ControlContext): Promise<Reply> {
  const given = input as Partial<CheckRunInput>;
  if (![given.owner, given.repo, given.ref, given.name].every(isText)) return refused("owner, repo, ref and name are required");
  const wrongAnnotation = annotationError(given.annotations);
  if (wrongAnnotation) return refused(wrongAnnotation);
  if (given.text !== undefined && typeof given.text !== "string") return refused("text must be a string");
  const { owner, repo, ref, name } = given as CheckRunInput;
  const status = given.status ?? "completed";
  const conclusion = given.conclusion !== undefined ? given.conclusion : status === "completed" ? "success" : null;
  const run: CheckRun = {
    ...{ id: store.checkRuns.length + 1, owner, repo, name, status, conclusion, headSha: refSha(owner, repo, ref), startedAt: now() },
    ...{ title: given.title ?? name, summary: given.summary ?? null, text: given.text ?? null, annotations: given.annotations ?? [] },
  };
  store.checkRuns.push(run);
  const deliveries: DeliveryOutcome[] =
    status === "completed" ? await hookshot.announce("check_run", { action: "completed", check_run: checkRunView(run), ...about(owner, repo, ACTIONS_BOT) }, owner, repo) : [];
  return [201, { id: run.id, head_sha: run.headSha, deliveries }];
}

/** Opens an issue as its author would: `opened`, then one `labeled` per label it was opened with, as GitHub sends them. */
async function addIssue(_: string[], input: Input, { hookshot }: ControlContext): Promise<Reply> {
  const given = input as Partial<IssueInput>;
  if (![given.owner, given.repo, given.title].every(isText)) return refused("owner, repo and title are required");
  if (given.body !== undefined && typeof given.body !== "string") return refused("body must be a string");
  if (given.labels !== undefined && !(Array.isArray(given.labels) && given.labels.every(isText))) return refused("labels must be a list of names");
  if (given.user !== undefined && !isText(given.user)) return refused("user must be a login");
  const { owner, repo, title } = given as IssueInput;
  const at = now();
  const issue: Issue = {
    ...{ owner, repo, number: nextNumber(owner, repo), title, body: given.body ?? null, user: given.user ?? LOGIN, labels: [...new Set(given.labels ?? [])] },
    ...{ state: "open", stateReason: null, closedBy: null, createdAt: at, updatedAt: at, closedAt: null },
  };
  store.issues.push(issue);
  const deliveries = await hookshot.announce("issues", { action: "opened", issue: issueView(issue), ...about(owner, repo, issue.user) }, owner, repo);
  for (const label of issue.labels) deliveries.push(...(await announceLabel(hookshot, issue, label, issue.user)));
  return [201, { number: issue.number, deliveries }];
}

async function labelIssue([owner, repo, number]: string[], input: Input, { hookshot }: ControlContext): Promise<Reply> {
  const issue = findIssue(owner, repo, Number(number));
  if (!issue) return notFound;
  if (!isText(input.label)) return refused("label is required");
  if (input.user !== undefined && !isText(input.user)) return refused("user must be a login");
  // Labelling an issue twice changes nothing, and GitHub sends nothing.
  if (issue.labels.includes(input.label)) return [200, { labels: issue.labels, deliveries: [] }];
  issue.labels.push(input.label);
  issue.updatedAt = now();
  return [200, { labels: issue.labels, deliveries: await announceLabel(hookshot, issue, input.label, (input.user as string | undefined) ?? LOGIN) }];
}

function announceLabel(hookshot: Hookshot, issue: Issue, label: string, sender: string): Promise<DeliveryOutcome[]> {
  const payload = { action: "labeled", issue: issueView(issue), label: labelView(issue.owner, issue.repo, label), ...about(issue.owner, issue.repo, sender) };
  return hookshot.announce("issues", payload, issue.owner, issue.repo);
}

function readIssue([owner, repo, number]: string[]): Reply {
  const item = findIssue(owner, repo, Number(number)) ?? findPull(owner, repo, Number(number));
  return item ? [200, issueView(item)] : notFound;
}

function readComments([owner, repo, number]: string[]): Reply {
  const item = findIssue(owner, repo, Number(number)) ?? findPull(owner, repo, Number(number));
  if (!item) return notFound;
  return [200, store.comments.filter((c) => inRepo(owner, repo)(c) && c.number === item.number).map(issueCommentView)];
}

/** The part every repository event's payload shares: the repository and who caused the event. */
function about(owner: string, repo: string, sender: string) {
  return { repository: repository(owner, repo), sender: user(sender) };
}
