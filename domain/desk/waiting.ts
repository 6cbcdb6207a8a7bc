// What waits for a principal's decision, in one list: escalations (humans decide them), tasks in review
// whose approver they are (a flight's goal included: its approver is the human who asked for it),
// requests and proposals addressed to them that they have not answered in that room since, the high
// findings of the MAST monitor on their flights while the goal is open, and (for every human) the issues a forge
// labelled for the team, each a flight to start or dismiss.
import { answeredKeys } from "../diagnosis/answer";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { decisions, messages, principals, tasks } from "../../db/schema";
import type { Executor } from "../../db/client";
import { highFindings, openFlightsOf } from "../diagnosis/alerts";
import { refusedFlightsOf } from "../flights/forge-refusal";
import { handedBackGoals, type HandedBackGoal } from "../flights/handed-back";
import { type ProposalView, waitingProposals } from "../flights/proposals";
import type { Principal } from "../principal";

/** How many unanswered requests the list carries at most (the newest). */
const REQUEST_LIMIT = 20;

/** The page of the rail where each kind of item is acted on. */
export const WAITING_PAGES = { escalation: "/decisions", review: "/board", request: "/room", handback: "/board", finding: "/board", proposal: "/board", forge: "/board" } as const;
export type WaitingKind = keyof typeof WAITING_PAGES;

interface Base {
  kind: WaitingKind;
  /** Stable across refetches: the kind and the thing's own id. */
  key: string;
  /** Since when it waits. */
  since: string;
}
export interface EscalationItem extends Base {
  kind: "escalation";
  decisionId: string;
  number: number;
  question: string;
  /** Past this the default is adopted. */
  deadline: string | null;
  defaultOption: string;
}
export interface ReviewItem extends Base {
  kind: "review";
  taskId: string;
  number: number;
  title: string;
  ownerName: string | null;
}
export interface RequestItem extends Base {
  kind: "request";
  room: string;
  seq: number;
  performative: "REQUEST" | "PROPOSE";
  fromName: string;
  /** The first line of the message, shortened. */
  excerpt: string;
}
/** A goal the team could not carry (its model failed, or its run ended without a plan): back with the human who posted it. */
export interface HandbackItem extends Base, Omit<HandedBackGoal, "since"> {
  kind: "handback";
  /** What the human can do here: retry live, run scripted, or cancel the goal with an ADR. */
  actions: readonly ["retry", "scripted", "cancel"];
}
/** A failure the MAST monitor found on a flight of theirs that got past a gate (high: accepted, integrated or a red suite). */
export interface FindingItem extends Base {
  kind: "finding";
  flightId: string;
  flightNumber: number;
  /** The goal's number: the finding opens on the goal's page, in its Diagnosis panel. */
  goalNumber: number;
  /** The finding's key, the anchor it opens at. */
  findingKey: string;
  mode: string;
  name: string;
  sentence: string;
}
/** An issue labelled for the team on a forge: a flight any human may start, its goal prefilled from the issue, or dismiss. */
export interface ProposalItem extends Base, Pick<ProposalView, "repository" | "issueNumber" | "issueUrl" | "title" | "goal"> {
  kind: "proposal";
  proposalId: string;
}
/** A flight of theirs whose forge refuses what the hub does for its pull request (the hub keeps trying). */
export interface ForgeItem extends Base {
  kind: "forge";
  flightId: string;
  flightNumber: number;
  goalNumber: number;
  /** The forge's words, its token redacted. */
  reason: string;
}
export type WaitingItem = EscalationItem | ReviewItem | RequestItem | HandbackItem | FindingItem | ProposalItem | ForgeItem;

export interface WaitingView {
  total: number;
  /** Oldest first within each kind; escalations, then handed-back goals, then forges refusing, then findings, then reviews, then proposed flights, then requests. */
  items: WaitingItem[];
  /** How many items each rail page holds. */
  byPage: Record<(typeof WAITING_PAGES)[WaitingKind], number>;
}

function excerptOf(body: string): string {
  const line = body.trim().split("\n")[0] ?? "";
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
}

export async function listWaiting(db: Executor, caller: Principal): Promise<WaitingView> {
  // The reads are independent: sent together, the request waits about one round trip instead of one per read.
  const [escalations, reviews, requests, handbacks, findings, proposals, refusals] = await Promise.all([
    listEscalations(db, caller),
    listReviews(db, caller),
    listRequests(db, caller),
    listHandbacks(db, caller),
    listFindings(db, caller),
    listProposals(db, caller),
    listForgeRefusals(db, caller),
  ]);
  const items: WaitingItem[] = [...escalations, ...handbacks, ...refusals, ...findings, ...reviews, ...proposals, ...requests];
  return {
    total: items.length,
    items,
    byPage: { "/decisions": escalations.length, "/board": reviews.length + handbacks.length + refusals.length + findings.length + proposals.length, "/room": requests.length },
  };
}

async function listEscalations(db: Executor, caller: Principal): Promise<EscalationItem[]> {
  return caller.kind === "human"
    ? (
        await db
          .select({
            id: decisions.id,
            number: decisions.number,
            question: decisions.question,
            escalatedAt: decisions.escalatedAt,
            deadline: decisions.escalationDeadline,
            defaultOption: decisions.defaultOption,
          })
          .from(decisions)
          .where(eq(decisions.status, "escalated"))
          .orderBy(asc(decisions.escalationDeadline))
      ).map((d) => ({
        kind: "escalation",
        key: `escalation:${d.id}`,
        since: (d.escalatedAt ?? new Date(0)).toISOString(),
        decisionId: d.id,
        number: d.number,
        question: d.question,
        deadline: d.deadline?.toISOString() ?? null,
        defaultOption: d.defaultOption,
      }))
    : [];
}

async function listReviews(db: Executor, caller: Principal): Promise<ReviewItem[]> {
  const reviewRows = await db
    .select({ id: tasks.id, number: tasks.number, title: tasks.title, updatedAt: tasks.updatedAt, ownerName: principals.name })
    .from(tasks)
    .leftJoin(principals, eq(principals.id, tasks.ownerId))
    .where(and(eq(tasks.status, "review"), eq(tasks.approverId, caller.id)))
    .orderBy(asc(tasks.number));
  return reviewRows.map((t) => ({
    kind: "review",
    key: `review:${t.id}`,
    since: t.updatedAt.toISOString(),
    taskId: t.id,
    number: t.number,
    title: t.title,
    ownerName: t.ownerName,
  }));
}

async function listRequests(db: Executor, caller: Principal): Promise<RequestItem[]> {
  // A request is answered once the caller has posted in its room after it.
  const answered = sql`exists (select 1 from ${messages} as reply where reply.room = ${messages.room} and reply.sender_id = ${caller.id} and reply.seq > ${messages.seq})`;
  const requestRows = await db
    .select({ room: messages.room, seq: messages.seq, performative: messages.performative, body: messages.body, createdAt: messages.createdAt, fromName: principals.name })
    .from(messages)
    .innerJoin(principals, eq(principals.id, messages.senderId))
    .where(and(eq(messages.toId, caller.id), inArray(messages.performative, ["REQUEST", "PROPOSE"]), sql`not ${answered}`))
    .orderBy(desc(messages.id))
    .limit(REQUEST_LIMIT);
  return requestRows.reverse().map((m) => ({
    kind: "request",
    key: `request:${m.room}:${m.seq}`,
    since: m.createdAt.toISOString(),
    room: m.room,
    seq: m.seq,
    performative: m.performative === "PROPOSE" ? "PROPOSE" : "REQUEST",
    fromName: m.fromName,
    excerpt: excerptOf(m.body),
  }));
}

/** The high findings on the caller's flights whose goal is still open. */
async function listFindings(db: Executor, caller: Principal): Promise<FindingItem[]> {
  if (caller.kind !== "human") return [];
  const open = await openFlightsOf(db, caller);
  const alerts = await highFindings(
    db,
    open.map((f) => f.id),
    caller,
  );
  // A finding its human answered (seen, or not a failure) no longer waits.
  const answered = await answeredKeys(
    db,
    [...alerts.values()].flat().map((a) => a.key),
  );
  return open.flatMap((flight) =>
    (alerts.get(flight.id) ?? [])
      .filter((a) => !answered.has(a.key))
      .map((a) => ({
        kind: "finding" as const,
        key: `finding:${a.key}`,
        since: a.since,
        flightId: flight.id,
        flightNumber: flight.number,
        goalNumber: flight.goalNumber,
        findingKey: a.key,
        mode: a.mode,
        name: a.name,
        sentence: a.sentence,
      })),
  );
}

/** Goals the team handed back to this human (the flight red, the goal in ready), with the latest release's reason. */
async function listHandbacks(db: Executor, caller: Principal): Promise<HandbackItem[]> {
  if (caller.kind !== "human") return [];
  return (await handedBackGoals(db, eq(tasks.approverId, caller.id))).map(({ since, ...goal }) => ({
    kind: "handback",
    key: `handback:${goal.flightId}`,
    since: since.toISOString(),
    ...goal,
    actions: ["retry", "scripted", "cancel"],
  }));
}

/** Issues labelled for the team: any human may start or dismiss them, so each waits for every human. */
async function listProposals(db: Executor, caller: Principal): Promise<ProposalItem[]> {
  if (caller.kind !== "human") return [];
  return (await waitingProposals(db)).map((p) => ({
    kind: "proposal",
    key: `proposal:${p.id}`,
    since: p.createdAt,
    proposalId: p.id,
    repository: p.repository,
    issueNumber: p.issueNumber,
    issueUrl: p.issueUrl,
    title: p.title,
    goal: p.goal,
  }));
}

async function listForgeRefusals(db: Executor, caller: Principal): Promise<ForgeItem[]> {
  if (caller.kind !== "human") return [];
  return (await refusedFlightsOf(db, caller.id)).map((f) => ({
    kind: "forge",
    key: `forge:${f.flightId}`,
    since: (f.since ?? new Date(0)).toISOString(),
    flightId: f.flightId,
    flightNumber: f.flightNumber,
    goalNumber: f.goalNumber,
    reason: f.reason ?? "",
  }));
}
