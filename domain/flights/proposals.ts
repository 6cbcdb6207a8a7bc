// Issue intake: an issue given its forge's intake label (Settings → Forges) becomes a flight proposal waiting for a
// human, once per issue. It arrives by the forge's webhook (proposeFromIssue) or, where the hub polls, at the
// orchestrator's turns (pollIssueIntake: each repository the hub has flown on that forge, at most once a minute). A
// human then starts it, its goal the issue's words as they edited them, by the same path as New flight (./start.ts),
// the flight remembering its issue; or dismisses it. Quorum proposes; only a human starts anything.
import { and, eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { flightProposals, flights, forgeHosts } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { redactText } from "../hub-secrets";
import { isUuid } from "../ids";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { getSystemPrincipal } from "../principals/create-principal";
import { textField } from "../tasks/text";
import type { Flight } from "./launch";
import { githubOf, repositoryKey, repositoryOf } from "./pull-request";
import { parseRemote } from "./remote";
import { startFlight } from "./start";
import type { FlightView } from "./view";

/** How often one repository's labelled issues are asked for (GitHub allows 5,000 requests an hour a token). */
export const ISSUE_CHECK_MS = 60_000;
/** A flight's goal is at most this long (./launch.ts): the suggested goal is cut to fit. */
const GOAL_MAX = 4000;
/** GitHub's own limits on an issue's title and body. */
const TITLE_MAX = 256;
const BODY_MAX = 65_536;

/** An issue as a forge delivers or lists it; `pull_request` is present when it is a pull request (GitHub lists both). */
export interface IssueOnForge {
  number: number;
  title: string;
  body?: string | null;
  html_url: string;
  labels: string[];
  pull_request?: unknown;
}

export interface ProposalView {
  id: string;
  host: string;
  remote: string;
  /** `owner/repo`, as the forge names it. */
  repository: string;
  issueNumber: number;
  issueUrl: string;
  title: string;
  /** The goal a human starts from: the issue's title and body, cut to a goal's length. */
  goal: string;
  state: "waiting" | "started" | "dismissed";
  flightId: string | null;
  createdAt: string;
}

export const startProposalInput = z.strictObject({ goal: textField(GOAL_MAX, "a flight needs a goal") });
export type StartProposalInput = z.input<typeof startProposalInput>;

type ProposalRow = typeof flightProposals.$inferSelect;

/** Text Postgres stores and people read: well-formed, without NUL, at most `max` characters. */
function storable(text: string, max: number): string {
  return text.toWellFormed().replaceAll("\u0000", "").slice(0, max);
}

function repositoryName(remote: string): string {
  const where = repositoryOf(remote);
  return where ? `${where.owner}/${where.repo}` : remote;
}

/** The issue's title and body as a goal, cut to a goal's length. */
export function goalOf(proposal: { title: string; body: string }): string {
  const text = [proposal.title.trim(), proposal.body.trim()].filter(Boolean).join("\n\n");
  return text.length > GOAL_MAX ? `${text.slice(0, GOAL_MAX - 1)}…` : text;
}

export function proposalView(row: ProposalRow): ProposalView {
  return {
    id: row.id,
    host: row.host,
    remote: row.remote,
    repository: repositoryName(row.remote),
    issueNumber: row.issueNumber,
    issueUrl: row.issueUrl,
    title: row.title,
    goal: goalOf(row),
    state: row.state,
    flightId: row.flightId,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The spelling of a repository's URL the hub already records — a flight's, or an earlier proposal's — else `url`'s
 * own: a webhook's `clone_url` and a human's typed URL name the same repository, and a proposal is once per issue.
 */
async function recordedRemote(db: Executor, url: string, key: string): Promise<string> {
  const [flown, proposed] = await Promise.all([
    db.selectDistinct({ remote: flights.remote }).from(flights).where(isNotNull(flights.remote)),
    db.selectDistinct({ remote: flightProposals.remote }).from(flightProposals),
  ]);
  return [...flown, ...proposed].map((row) => row.remote).find((remote): remote is string => remote !== null && repositoryKey(remote) === key) ?? url;
}

/**
 * Records a waiting proposal for `issue` when its forge takes issues with a label, the issue carries it and is no pull
 * request; once per issue, however often it is delivered (FlightProposed in the same transaction). True when it was new.
 * The forge's webhook route calls it for `issues` deliveries; polling calls it for each labelled issue it lists.
 */
export async function proposeFromIssue(db: Db, delivered: { host: string; remote: string; issue: IssueOnForge }, clock: Clock): Promise<boolean> {
  const { issue } = delivered;
  if (issue.pull_request) return false;
  const host = delivered.host.trim().toLowerCase();
  const [forge] = await db.select({ intakeLabel: forgeHosts.intakeLabel }).from(forgeHosts).where(eq(forgeHosts.host, host));
  const label = forge?.intakeLabel?.toLowerCase();
  if (!label || !issue.labels.some((name) => name.trim().toLowerCase() === label)) return false;
  const key = repositoryKey(delivered.remote);
  if (!key?.startsWith(`${host}/`)) return false;
  const remote = await recordedRemote(db, parseRemote(delivered.remote)!.url, key);
  const system = await getSystemPrincipal(db);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(flightProposals)
      .values({
        host,
        remote,
        issueNumber: issue.number,
        issueUrl: storable(issue.html_url, 2048),
        title: storable(issue.title, TITLE_MAX),
        body: storable(issue.body ?? "", BODY_MAX),
        createdAt: now,
      })
      .onConflictDoNothing({ target: [flightProposals.remote, flightProposals.issueNumber] })
      .returning();
    if (!row) return false;
    await appendEvent(tx, {
      kind: "FlightProposed",
      actor: system.id,
      t: now,
      data: { proposalId: row.id, remote: row.remote, issue: row.issueNumber, url: row.issueUrl, title: row.title },
    });
    return true;
  });
}

/** When each repository's issues were last asked for, by repository key: per process, as a courtesy to the forge. */
const lastAsked = new Map<string, number>();

/**
 * Asks each forge that takes labelled issues and is polled for the open issues carrying its label, on each repository
 * the hub has flown there, each at most once a minute; proposes each. True when one became a new proposal. A forge
 * that refuses throws its words, never the token: its repository is asked again a minute later.
 */
export async function pollIssueIntake(db: Db, clock: Clock): Promise<boolean> {
  const forges = await db
    .select({ host: forgeHosts.host, label: forgeHosts.intakeLabel })
    .from(forgeHosts)
    .where(and(isNotNull(forgeHosts.intakeLabel), eq(forgeHosts.pollPullRequests, true)));
  if (forges.length === 0) return false;
  const flown = await db.selectDistinct({ remote: flights.remote }).from(flights).where(isNotNull(flights.remote));
  let proposed = false;
  for (const forge of forges) {
    const repositories = new Map<string, string>();
    for (const { remote } of flown) {
      const key = remote ? repositoryKey(remote) : null;
      if (key?.startsWith(`${forge.host}/`) && !repositories.has(key)) repositories.set(key, remote!);
    }
    for (const [key, remote] of repositories) {
      const now = clock.now().getTime();
      if (now - (lastAsked.get(key) ?? Number.NEGATIVE_INFINITY) < ISSUE_CHECK_MS) continue;
      lastAsked.set(key, now);
      const github = await githubOf(db, remote);
      if (!github) continue;
      let issues: IssueOnForge[];
      try {
        const { data } = await github.github.rest.issues.listForRepo({ ...github.where, labels: forge.label!, state: "open", per_page: 100 });
        issues = data.map((item) => ({ ...item, labels: item.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))) }));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(`${forge.host} refused the issues of ${repositoryName(remote)}: ${redactText(message, [{ label: "the forge token", value: github.token }])}`);
      }
      for (const issue of issues) if (await proposeFromIssue(db, { host: forge.host, remote, issue }, clock)) proposed = true;
    }
  }
  return proposed;
}

/** The proposal `id`, locked for the caller's transaction, while it still waits: 404 for none, 409 once decided. */
async function lockWaiting(tx: Executor, id: string): Promise<ProposalRow> {
  const [row] = isUuid(id) ? await tx.select().from(flightProposals).where(eq(flightProposals.id, id)).for("update") : [];
  if (!row) throw fail.notFound("proposal", `no flight proposal ${id.slice(0, 64)}`);
  if (row.state !== "waiting") {
    throw fail.conflict("proposal", "proposal_decided", `issue #${row.issueNumber}'s proposal was ${row.state} already`, { state: row.state });
  }
  return row;
}

function requireHuman(caller: Principal, what: string): void {
  if (caller.kind !== "human") throw fail.forbidden("proposal", `only humans ${what} a flight proposed from an issue`);
}

/**
 * A human starts the proposal's flight on its repository with `goal` (the issue's words, as they edited them), as New
 * flight does; the flight records the issue, and the proposal is marked started in the launch's own transaction, so
 * two humans starting it at once launch one flight (the other gets 409 `proposal_decided`).
 */
export async function startProposal(db: Db, caller: Principal, id: string, input: StartProposalInput, clock: Clock): Promise<FlightView> {
  requireHuman(caller, "start");
  const { goal } = startProposalInput.parse(input);
  const proposal = await db.transaction((tx) => lockWaiting(tx, id));
  const claim = async (tx: Executor, flight: Flight) => {
    const row = await lockWaiting(tx, proposal.id);
    const now = clock.now();
    await tx.update(flightProposals).set({ state: "started", flightId: flight.id, decidedBy: caller.id, decidedAt: now }).where(eq(flightProposals.id, row.id));
    await appendEvent(tx, {
      kind: "FlightProposalStarted",
      actor: caller.id,
      taskId: flight.goalTaskId,
      t: now,
      data: { proposalId: row.id, remote: row.remote, issue: row.issueNumber, url: row.issueUrl, flightId: flight.id, number: flight.number },
    });
  };
  return startFlight(db, caller, { repo: proposal.remote, goal }, clock, { number: proposal.issueNumber, claim });
}

/** A human turns the proposal down: it leaves what waits, and its issue is not proposed again. */
export async function dismissProposal(db: Db, caller: Principal, id: string, clock: Clock): Promise<ProposalView> {
  requireHuman(caller, "dismiss");
  return db.transaction(async (tx) => {
    const row = await lockWaiting(tx, id);
    const now = clock.now();
    const [dismissed] = await tx.update(flightProposals).set({ state: "dismissed", decidedBy: caller.id, decidedAt: now }).where(eq(flightProposals.id, row.id)).returning();
    await appendEvent(tx, {
      kind: "FlightProposalDismissed",
      actor: caller.id,
      t: now,
      data: { proposalId: row.id, remote: row.remote, issue: row.issueNumber, url: row.issueUrl },
    });
    return proposalView(dismissed);
  });
}

/** The proposals waiting for a human, oldest first. */
export async function waitingProposals(db: Executor): Promise<ProposalView[]> {
  const rows = await db.select().from(flightProposals).where(eq(flightProposals.state, "waiting")).orderBy(flightProposals.createdAt).limit(50);
  return rows.map(proposalView);
}
