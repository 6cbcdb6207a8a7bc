// The data each journal kind carries: one map from kind to payload, so a writer cannot append a
// shape its readers do not expect. docs/EVENTS.md describes them; a change of shape bumps `v`.
import { z } from "zod";
import type { EventKind } from "./kinds";

/** A submission's per-test results in the journal: the counts, and what they say against the flight's baseline. */
export interface SubmittedTests {
  passed: number;
  failed: number;
  /** Whether the flight had a baseline to judge against (without one, every failing non-target test is broken). */
  baseline: boolean;
  /** `repaired` is absent from submissions journalled before it was. */
  delta: { fixed: string[]; stillFailing: string[]; unseen: string[]; broken: string[]; repaired?: string[] };
}

/** The relay's gates, by the name GateRejected records (db/functions/quorum_post_gate_refusal.sql decides them). */
export const GATE_NAMES = ["rate", "duplicate", "freshness", "lapping", "two_tier"] as const;
export type GateName = (typeof GATE_NAMES)[number];

type TallyEntry = { option: string; count: number };
type TaskRef = { id: string; number: number; title: string };
type TaskShareRef = { taskId: string; budgetId: string; allowance: number };

export interface MessageSentData {
  room: string;
  seq: number;
  messageId: number;
  /** The direct recipient's principal id. */
  to: string | null;
  performative: string | null;
  body: string;
  mentions: string[];
  heldSeq: number | null;
  /** A critical-path reminder, which passes focus windows. */
  nudge?: true;
}

export type MessageDeliveredData =
  | { via: "inbox"; room: string; seq: number; messageId: number; performative: string | null; recipients: string[]; held: string[]; nudge: boolean }
  | { via: "digest"; recipient: string; messageIds: number[]; rooms: string[] };

/** Written by the database with the refusal it decided (db/functions/quorum_record_gate_rejection.sql). */
export interface GateRejectedData {
  room: string;
  gate: GateName;
  /** The refusal's code (`rate_limited`, `duplicate`, `stale`, `lapping`). */
  reason: string;
  /** The refusal's words, in events of v 1 only; gateRejectionMessage (domain/rooms/gate-refusal.ts) words any. */
  message?: string;
  sender: string;
  senderName: string;
  to: string | null;
  bodyPreview: string;
  figures: Record<string, unknown>;
}

type ReservationRef = { reservationId: string; fence: number; scope: string };
type WebhookAttempt = { endpointId: string; deliveryId: string; type: string; attempt: number; ms: number };
type ForgeRef = { host: string; kind: string; apiUrl: string };
/** A flight proposal: the repository's URL, its issue's number and page on the forge. */
type ProposalRef = { proposalId: string; remote: string; issue: number; url: string };
type CommitmentMove = { commitmentId: string; number: number; from: string; to: string; reason?: string };

/** The approver's ACCEPT a harness integrates on (domain/tasks/require-accepted.ts reads it; TaskIntegrated records it). */
export interface Acceptance {
  taskId: string;
  reviewerId: string;
  ownerId: string;
  acceptedAt: Date;
}

/** A run ended without finishing its task: the task is released at once, never left to its lease. */
export interface TaskReleasedData {
  number: number;
  /** The run that failed, when one started. */
  runId: string | null;
  /** How it ended: `failed` (the model call failed for good) or the run's status (`inconclusive`, `out_of_turns`, `halted`, …). */
  outcome: string;
  reason: string;
  /** The model the run used (`scripted` or `<wire>:<model>`). */
  model: string;
  /** A subtask goes back to ready and is not re-offered before this; null for a goal, and for a subtask handed to the orchestrator to re-plan. */
  coolDownUntil: string | null;
  /** A subtask released for the last time it is tried (SUBTASK_TRIES) goes to its flight's orchestrator to re-plan. */
  replan?: boolean;
  /** A goal is handed to the human who posted it (its approver); null for a subtask. */
  handedTo: string | null;
  flightId: string;
  /** Whether this release told the Room (the first failure of the model since it last finished a run). */
  told: boolean;
  /** Releases for this model since it last finished a run, this one included. */
  streak: number;
}

/**
 * The payload of every kind. The runtime's own kinds (RunStarted … RunStopped) carry its types, so they are
 * declared beside those types, in domain/runs/run-events.ts, which merges them into this interface: the
 * journal imports no institution.
 */
export interface EventPayloads {
  // the runtime: messages and budgets (a run's own kinds are in domain/runs/run-events.ts)
  MessageSent: MessageSentData;
  MessageDelivered: MessageDeliveredData;
  BudgetCreated: { budgetId: string; ownerId: string; parentId: string | null; label: string; allowance: number };
  BudgetAllowanceChanged: { budgetId: string; allowance: number; previous: number };
  // principals and rooms
  PrincipalCreated: { principalId: string; kind: "human" | "agent" | "system"; name: string; role: string | null };
  /** A human invited a teammate by name; the link's token is never journalled. */
  InvitationCreated: { invitationId: string; name: string; expiresAt: string };
  InvitationRevoked: { invitationId: string; name: string };
  InvitationAccepted: { invitationId: string; principalId: string; name: string };
  /** A human removed another: their sessions ended; `quorum human add` brings them back (HumanRestored). */
  HumanRemoved: { principalId: string; name: string };
  HumanRestored: { principalId: string; name: string };
  AgentKeyIssued: { principalId: string };
  /** A new key issued and the `revoked` live ones ended with it; never the key itself. */
  AgentKeyRotated: { principalId: string; name: string; revoked: number };
  AgentKeysRevoked: { principalId: string; name: string; revoked: number };
  HumanSignedIn: Record<string, never>;
  /** A human signed out: the session row is gone (its token is never journalled). */
  SessionEnded: { sessionId: string };
  RoomCreated: { room: string };
  CursorAdvanced: { room: string; seq: number; previous: number | null };
  GateRejected: GateRejectedData;
  // the relay
  FocusWindowOpened: { agentId: string; taskId: string; previousTaskId?: string };
  FocusWindowClosed: { agentId: string; taskId: string; reason: string; delivered: number; dropped: number };
  DigestFlushed: { agentId: string; taskId: string; reason: string; messageIds: number[]; count: number; dropped: number; rooms: string[] };
  // the task board
  TaskCreated: {
    number: number;
    title: string;
    approverId: string;
    parentId: string | null;
    hasAcceptanceCriteria: boolean;
    leaseMinutes: number | null;
    /** The tasks it waits for (absent when none). */
    dependsOn?: string[];
  };
  /** A ready task's words or approver changed by its creator or a human: `changed` names the fields, the rest is the task now. */
  TaskEdited: {
    number: number;
    changed: ("title" | "description" | "acceptanceCriteria" | "approverId" | "targetTests")[];
    title: string;
    approverId: string;
    hasAcceptanceCriteria: boolean;
  };
  TaskClaimed: { number: number; ownerId: string; fence: number; leaseExpiresAt?: string; outputCount: number; via: "claim" | "claim-next" };
  LeaseRenewed: { fence: number; leaseExpiresAt: string };
  OutputAppended: { fence: number; from: number; count: number; items: unknown[] };
  LeaseExpired: { number: number; ownerId: string | null; fence: number; outputCount: number; leaseExpiresAt?: string };
  TaskOffered: { number: number; to: string; toName: string; ranking: { id: string; name: string; score: number; load: number; successRate: number }[] };
  TaskSubmitted: {
    number: number;
    fence: number;
    summary: string;
    evidenceId: number;
    outputCount: number;
    /** With per-test results: how many passed and failed, and the delta the review's gate judges (quorum_test_delta), as submitted. */
    tests?: SubmittedTests;
  };
  TaskReviewed: {
    number: number;
    verdict: "accept" | "reject";
    reason: string | null;
    ownerId: string | null;
    reviewerId: string;
    fence: number;
    /** A human's ACCEPT over the tests' refusal: what they refused, and why the human accepted. */
    overruled?: { refusal: string; reason: string };
    /** How many of the reviewer's line comments went with the verdict (domain/tasks/comments.ts). */
    comments?: number;
  };
  ReviewCommented: { number: number; commentId: string; path: string; side: "new" | "old"; line: number; endLine: number; body: string };
  ReviewCommentWithdrawn: { number: number; commentId: string };
  TaskReopened: { number: number; evidenceId: number; previousOwnerId: string | null; offeredTo?: string };
  TaskCancelled: { number: number; from: string; adrId: string; adrTitle: string; ownerId: string | null };
  // decisions, commitments and memory
  DecisionOpened: {
    decisionId: string;
    number: number;
    question: string;
    options: string[];
    defaultOption: string;
    consequence: string;
    quorum: number;
    timeboxAt: string;
    escalationTimeboxSeconds: number;
  };
  BallotCast: { decisionId: string; number: number; option: string; reasoning: string };
  DecisionClosed: { decisionId: string; number: number; outcome: string; tally: TallyEntry[]; room: string };
  DecisionEscalated: { decisionId: string; number: number; reason: "timebox" | "tie"; tally: TallyEntry[]; envelope: string; escalationDeadline: string; room: string };
  EscalationResolved: { decisionId: string; number: number; option: string; wasDefault: boolean; tally: TallyEntry[]; room: string };
  DefaultAdopted: { decisionId: string; number: number; outcome: string; escalationDeadline: string; room: string };
  CommitmentProposed: { commitmentId: string; number: number; what: string; dueAt: string | null };
  CommitmentConfirmed: CommitmentMove;
  CommitmentFulfilled: CommitmentMove;
  CommitmentWithdrawn: CommitmentMove;
  DependencyAdded: { blockedId: string; blockerId: string; blockedNumber: number; blockerNumber: number };
  ReminderSent: { blockerId: string; blockedId: string; blockerNumber: number; blockedNumber: number; ownerId: string; room: string };
  LessonRecorded: { lessonId: string; text: string; key: string };
  PrinciplePromoted: { principleId: string; text: string; key: string; sources: number; tasks: number; by: "sources" | "tasks" };
  PrinciplePinned: { principleId: string; text: string; key: string };
  PrincipleUnpinned: { principleId: string; key: string; stillActive: boolean };
  // path reservations
  ReservationGranted: ReservationRef & { patterns: string[]; mode: "exclusive" | "shared"; reason: string; expiresAt: string };
  ReservationRenewed: ReservationRef & { expiresAt: string };
  ReservationReleased: ReservationRef & { patterns: string[] };
  ReservationExpired: ReservationRef & { patterns: string[]; holderId: string; expiresAt: string };
  ReservationForceReleased: ReservationRef & { patterns: string[]; holderId: string; reason: string };
  // webhooks and stalled agents (never a secret; an endpoint by id and host, never its full URL)
  AgentStalled: { agentId: string; agentName: string; number: number; fence: number; lastActivityAt: string; leaseExpiresAt: string; room: string };
  WebhookAdded: { endpointId: string; host: string; events: string[] };
  WebhookRemoved: { endpointId: string; host: string; abandoned: number };
  WebhookTestQueued: { endpointId: string; deliveryId: string };
  WebhookDelivered: WebhookAttempt & { status: number };
  WebhookFailed: WebhookAttempt & { status: number | null; error: string; nextAttemptAt: string | null };
  WebhookDisabled: { endpointId: string; host: string; failingSince: string; abandoned: number };
  // forges: named by host, kind and API URL; never the token
  ForgeHostAdded: ForgeRef;
  ForgeTokenReplaced: ForgeRef;
  ForgeHostRemoved: ForgeRef;
  /** What a human changed of a forge's settings: only the fields that changed; the webhook secret only as what happened to it. */
  ForgeSettingsChanged: ForgeRef & { intakeLabel?: string | null; pollPullRequests?: boolean; webhookSecret?: "generated" | "regenerated" | "removed" };
  // the built-in team
  /** `models`: each hosted member's model by agent name (absent before models per role). */
  TeamStarted: { roles: string[]; mode: string; models?: Record<string, string> };
  FlightLaunched: {
    flightId: string;
    goal: string;
    mode: string;
    /** Absent on flights launched before flights had a repository of their own (they worked in place, on main). */
    number?: number;
    source?: string;
    branch?: string;
    baseCommit?: string;
    /** The branch checked out at launch, which Merge brings the work into; null on a detached HEAD, absent before merging. */
    baseBranch?: string | null;
    testCommand?: string;
    /** The setup it runs before planning (null: none); absent on flights launched before setups. */
    setupCommand?: string | null;
    allowance?: number;
    /** The https URL it was started on (then `source` is the hub's clone of it); absent or null: a folder. */
    remote?: string | null;
    /** It opens a draft pull request once green (a remote flight); absent before drafts. */
    draftPullRequest?: boolean;
  };
  /** The flight's setup began building its environment (`digest` names it in QUORUM_HOME/environments). */
  FlightSetupStarted: { flightId: string; command: string; source: string; digest: string };
  /** How far a running setup got: its output's last line, and how long it has run. */
  FlightSetupProgress: { flightId: string; line: string; elapsedMs: number };
  /**
   * The setup ended: `ok` with its environment (`reused` when an earlier flight on the same lockfiles built it),
   * or failed with `reason`; `log` is the end of its output (the proxy's refusals in it).
   */
  FlightSetupEnded: {
    flightId: string;
    command: string;
    source: string;
    digest: string;
    ok: boolean;
    reused: boolean;
    elapsedMs: number;
    exitCode: number | null;
    reason: string | null;
    log: string;
  };
  /**
   * The suite ran once at the base commit, after the setup: what was red before anyone worked (the failing tests,
   * the first 50 of them; the whole results are the flight's `baseline_tests`), or null tests for output no format reads.
   */
  FlightBaselineRan: { flightId: string; exitCode: number | null; summary: string; failed: string[] | null };
  /** A human set how many tokens of flights an agent may start (0: none); `committed` is what its flights took so far. */
  FlightAllowanceSet: { agentId: string; tokens: number; previous: number; committed: number };
  FlightPlanningStarted: { flightId: string; status: string };
  FlightTaskAdded: { flightId: string; number: number };
  /** `shares`: each task's sub-budget of the flight's allowance, `reserve` what stays for the goal's runs (absent on flights without a budget). */
  FlightPlanned: { flightId: string; tasks: TaskRef[]; result: string; status: string; shares?: TaskShareRef[]; reserve?: number };
  /** A subtask was handed back after its tries: the orchestrator re-plans (`replan`), or, re-planned once already, hands the goal back. */
  FlightReplanning: { flightId: string; number: number; tries: number; replan: boolean };
  /** The goal's human asked for changes (review `reviewId`): `task` is the flight's task that makes them. */
  FlightChangesRequested: { flightId: string; reviewId: number; task: number; comments: number };
  FlightReplanned: { flightId: string; handedBack: number; cancelled: number[]; tasks: TaskRef[]; shares?: TaskShareRef[]; reserve?: number };
  TaskIntegrated: { flightId: string; commit: string; acceptance: Acceptance; branch?: string };
  /** An accepted task's merge into its flight's branch conflicted: it went back to its coder as rework. */
  IntegrationConflicted: { flightId: string; number: number; branch: string; files: string[]; offeredTo: string | null };
  IntegrationRefused: { flightId: string; number: number; branch: string; expected: string; actual: string; unexplained: string[] };
  /** The flight's branch reached the user's repository (or, with `refused`, git's reason it did not). */
  FlightBranchPublished: { flightId: string; branch: string; source: string; commit: string; refused: string | null };
  SuiteStarted: { flightId: string; taskIds: string[] };
  SuiteRan: { flightId: string; passed: boolean; exitCode: number | null; status: string };
  ReplyReasked: { awaiting: string | null };
  ReplyEscalated: { awaiting: string | null };
  ReworkAbandoned: { rejections: number };
  TaskReleased: TaskReleasedData;
  /** `mode`: the model's name, or `scripted (chosen by a human)`. */
  FlightRetried: { flightId: string; mode: string };
  /** Its human merged the accepted branch into `into` in `source`: `commit` is where `into` then stood; `how` as git did it. */
  /** A remote flight's accepted work became a pull request on its forge (domain/flights/pull-request.ts). */
  FlightPullRequestOpened: { flightId: string; number: number; pullRequest: number; url: string; remote: string; branch: string; base: string; draft?: boolean };
  FlightForgeRefused: { flightId: string; number: number; step: "open" | "ready" | "read"; host: string; reason: string };
  FlightForgeAnswered: { flightId: string; number: number };
  FlightPullRequestReady: { flightId: string; number: number; pullRequest: number; url: string };
  FlightPullRequestFeedback: { flightId: string; number: number; pullRequest: number; feedback: "review" | "check"; forgeId: number; from: string; lines: number; task: number };
  FlightPullRequestChecks: { flightId: string; number: number; pullRequest: number; passed: number; failed: number; pending: number };
  ForgeDeliveryReceived: { host: string; event: string; deliveryId: string; flightNumber: number | null };
  /** Its pull request was merged on the forge (seen by domain/flights/pull-request-state.ts): the flight is merged. */
  FlightPullRequestMerged: { flightId: string; number: number; pullRequest: number; url: string; commit: string | null };
  /** Its pull request was closed on the forge without merging: the flight is closed. */
  FlightPullRequestClosed: { flightId: string; number: number; pullRequest: number; url: string };
  FlightMerged: { flightId: string; number: number; source: string; into: string; branch: string; commit: string; how: "fast-forward" | "merge commit" | "already there" };
  /** Its human closed it without merging; `goalCancelled`: the goal was still open and was cancelled with an ADR of the reason. */
  FlightClosed: { flightId: string; number: number; reason: string; goalCancelled: boolean };
  // issues labelled for the team on a forge (domain/flights/proposals.ts)
  /** An issue carrying its forge's intake label became a proposal waiting for a human (actor: Quorum). */
  FlightProposed: ProposalRef & { title: string };
  /** A human started the proposal's flight, its goal as they edited it. */
  FlightProposalStarted: ProposalRef & { flightId: string; number: number };
  FlightProposalDismissed: ProposalRef;
  // the MAST monitor
  DiagnosisFound: DiagnosisFoundData;
  /** A human's answer to a finding (its key without the severity): seen, with a note, or not a failure at all. */
  FindingAnswered: { key: string; flightId: string; mode: string; severity: string; verdict: "acknowledged" | "not_a_failure"; note: string | null };
  // retention: a month of the journal left for a file (`quorum journal archive`) or came back (`… restore`)
  /** `month` `YYYY-MM-01`; `from`/`to` its bounds (UTC); `file` the archive's name (its folder is in journal_archives); `sha256` its bytes'. */
  JournalArchived: { month: string; from: string; to: string; events: number; file: string; sha256: string };
  JournalRestored: { month: string; from: string; to: string; events: number; file: string; sha256: string };
  // agents outside Quorum
  /** What an outside agent says one of its model calls spent (`amount` = input + output); Quorum did not measure it. */
  UsageReported: { model: string; amount: number; inputTokens: number; outputTokens: number; cachedTokens: number; selfReported: true };
}

/** A failure mode the MAST monitor found in a flight's journal (domain/diagnosis/monitor.ts): once per key and severity. */
export interface DiagnosisFoundData {
  /** The finding's key (its mode and the event that first showed it) and its severity: what is journalled once. */
  key: string;
  flightId: string;
  mode: string;
  name: string;
  category: number;
  severity: "low" | "medium" | "high";
  /** Names people and tasks, never ids. */
  sentence: string;
  /** The evidence: an agent may read the finding only if it may read every one of them (./visibility.ts). */
  eventIds: number[];
  runIds: string[];
  taskIds: string[];
  agents: string[];
}

// Every kind has a payload type and every payload type a kind: the build fails until both lists agree.
type Unlisted = Exclude<keyof EventPayloads, EventKind>;
type Untyped = Exclude<EventKind, keyof EventPayloads>;
export const KINDS_AND_PAYLOADS_AGREE: [Unlisted, Untyped] extends [never, never] ? true : { unlisted: Unlisted; untyped: Untyped } = true;

/** The payloads that rules read back get a schema: a stored shape they cannot use fails loudly, not silently. */
const READ_BACK: { [K in EventKind]?: z.ZodType } = {
  TaskReviewed: z.looseObject({ verdict: z.enum(["accept", "reject"]), reason: z.string().nullable() }),
  TaskSubmitted: z.looseObject({ summary: z.string() }),
  GateRejected: z.looseObject({
    room: z.string(),
    gate: z.string(),
    reason: z.string(),
    message: z.string().optional(),
    sender: z.string(),
    senderName: z.string(),
    figures: z.record(z.string(), z.unknown()),
  }),
  ToolReturned: z.looseObject({ tool: z.string(), observation: z.looseObject({ is_error: z.boolean() }) }),
  StopRequested: z.looseObject({ reason: z.string() }),
  ResumeRequested: z.looseObject({ reason: z.string() }),
  ModelFailed: z.looseObject({ error: z.string() }),
  TaskReleased: z.looseObject({ reason: z.string(), outcome: z.string(), model: z.string(), flightId: z.string() }),
  // The bill's snapshot reads a projection ({ result: { status } }): a schema asks only what every reader needs.
  BudgetExhausted: z.looseObject({ result: z.looseObject({ status: z.literal("halted") }) }),
  DiagnosisFound: z.looseObject({
    key: z.string(),
    flightId: z.string(),
    mode: z.string(),
    severity: z.enum(["low", "medium", "high"]),
    sentence: z.string(),
    eventIds: z.array(z.number()),
  }),
  UsageReported: z.looseObject({ model: z.string(), amount: z.number(), inputTokens: z.number(), outputTokens: z.number(), cachedTokens: z.number() }),
};

/** An event whose data is the payload its kind promises. */
export type EventOf<K extends EventKind, E extends { kind: string; data: unknown } = { kind: string; data: unknown }> = Omit<E, "kind" | "data"> & {
  kind: K;
  data: EventPayloads[K];
};

export function isEventOf<K extends EventKind, E extends { kind: string; data: unknown }>(event: E, kind: K): event is E & EventOf<K, E> {
  return event.kind === kind;
}

/** Reads an event's data as its kind's payload; throws if the event is of another kind or, where a schema exists, another shape. */
export function payloadOf<K extends EventKind>(event: { kind: string; data: unknown }, kind: K): EventPayloads[K] {
  if (event.kind !== kind) throw new Error(`expected a ${kind} event, read a ${event.kind}`);
  const schema = READ_BACK[kind];
  if (schema) {
    const parsed = schema.safeParse(event.data);
    if (!parsed.success)
      throw new Error(`a ${kind} event's data is not the shape its readers expect: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return (event.data ?? {}) as EventPayloads[K];
}
