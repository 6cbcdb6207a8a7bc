// The JSON the API answers with, as zod schemas: each checked against the server's view type at compile time
// (`satisfies z.ZodType<View>`), and against real answers by test/api-conformance.test.ts. Objects are open
// (a field added to a view is no break); the fields listed are the ones a client may rely on.
import { z } from "zod";
import type { CommitmentView } from "@/server/commitments/commitment-view";
import type { DecisionView } from "@/server/decisions/decision-view";
import type { Finding } from "@/server/diagnosis/finding";
import type { DiagnosisView } from "@/server/diagnosis/scope";
import type { FlightAllowanceView } from "@/server/flights/agent-allowance";
import type { TaskDiff } from "@/server/flights/task-diff";
import type { RepositoryInspection } from "@/server/flights/inspect";
import type { FlightList, FlightView } from "@/server/flights/view";
import type { BudgetLine } from "@/server/budgets/lines";
import type { ReportedUsage } from "@/server/bill/report-usage";
import type { EventsPage } from "@/server/journal/wait-for-events";
import type { JournalEntry } from "@/server/journal/list";
import type { JournalArchiveView } from "@/server/retention/archives";
import type { LessonView, PrincipleView } from "@/server/memory/memory-view";
import type { RosterEntry } from "@/server/principals/list-principals";
import type { Principal } from "@/server/principal";
import type { CursorView } from "@/server/relay/cursor";
import type { DigestView } from "@/server/relay/digest";
import type { GateRejection } from "@/server/relay/gate-log";
import { GATE_NAMES } from "@/server/relay/gate-refusal";
import type { InboxPage } from "@/server/relay/inbox";
import type { PathCheck } from "@/server/reservations/check-paths";
import type { ReservationView } from "@/server/reservations/view";
import type { MessageView } from "@/server/rooms/message-view";
import type { RoomView } from "@/server/rooms/rooms";
import type { TaskDetail } from "@/server/tasks/get";
import type { OutputItem } from "@/server/tasks/list-output";
import type { TaskView } from "@/server/tasks/view";
import { EXPERIMENT_NAMES, experimentReport } from "@/server/experiments/report";
import type { SavedExperiments } from "@/server/experiments/saved";
import type { ForkStep } from "@/server/runs/fork-report";

const open = <S extends z.ZodRawShape>(shape: S) => z.looseObject(shape);
const uuid = z.string();
const when = z.string();
const kind = z.enum(["human", "agent", "system"]);
const int = z.number().int();

/** A cursor page: `next` is the cursor of the following page, when there is one. */
export const page = <S extends z.ZodType>(item: S) => open({ items: z.array(item), next: int.optional() });

export const health = open({ ok: z.literal(true) });
export const principal = open({ id: uuid, kind, name: z.string(), role: z.string().nullable() }) satisfies z.ZodType<Principal>;
export const rosterEntry = open({
  id: uuid,
  kind,
  name: z.string(),
  role: z.string().nullable(),
  present: z.boolean(),
  lastSeenAt: when.nullable(),
  /** Its place in the order principals were created (0 the first): what its colour is chosen by. */
  order: int,
}) satisfies z.ZodType<RosterEntry>;
export const registeredAgent = open({ id: uuid, name: z.string(), role: z.string(), key: z.string() });
export const issuedKey = open({ id: uuid, name: z.string(), key: z.string(), revoked: int });
export const flightAllowance = open({ agentId: uuid, tokens: int, committed: int, left: int }) satisfies z.ZodType<FlightAllowanceView>;

export const room = open({ name: z.string(), lastSeq: int, createdAt: when }) satisfies z.ZodType<RoomView>;
export const message = open({
  id: int,
  seq: int,
  room: z.string(),
  senderId: uuid,
  senderName: z.string(),
  senderKind: kind,
  to: uuid.nullable(),
  toName: z.string().nullable(),
  performative: z.string().nullable(),
  taskId: uuid.nullable(),
  body: z.string(),
  payload: z.unknown(),
  mentions: z.array(uuid),
  heldSeq: int.nullable(),
  createdAt: when,
}) satisfies z.ZodType<MessageView>;
export const inbox = open({ items: z.array(message.extend({ addressed: z.boolean() })), next: int.optional() }) satisfies z.ZodType<InboxPage>;
export const cursor = open({ room: z.string(), seq: int, lastSeq: int, moved: z.boolean() }) satisfies z.ZodType<CursorView>;
export const digest = open({
  agentId: uuid,
  focusing: z.boolean(),
  taskId: uuid.nullable(),
  openedAt: when.nullable(),
  items: z.array(message.extend({ queuedAt: when })),
  dropped: int,
}) satisfies z.ZodType<DigestView>;
export const flushed = open({ flushed: z.array(int), dropped: int });
export const gateRejection = open({
  id: int,
  t: when,
  room: z.string(),
  gate: z.enum(GATE_NAMES),
  reason: z.string(),
  message: z.string(),
  senderId: uuid,
  senderName: z.string(),
  bodyPreview: z.string(),
  figures: z.record(z.string(), z.unknown()),
}) satisfies z.ZodType<GateRejection>;
export const presenceEntry = rosterEntry;

export const task = open({
  id: uuid,
  number: int,
  title: z.string(),
  description: z.string(),
  acceptanceCriteria: z.string().nullable(),
  status: z.enum(["ready", "in_progress", "review", "done", "cancelled"]),
  ownerId: uuid.nullable(),
  ownerName: z.string().nullable(),
  ownerKind: kind.nullable(),
  approverId: uuid,
  approverName: z.string(),
  approverKind: kind,
  fence: int,
  leaseMinutes: int.nullable(),
  leaseExpiresAt: when.nullable(),
  stallsAt: when.nullable(),
  outputCount: int,
  waitingOn: int,
  offeredTo: uuid.nullable(),
  parentId: uuid.nullable(),
  adrId: uuid.nullable(),
  createdBy: uuid,
  createdByName: z.string(),
  createdAt: when,
  updatedAt: when,
}) satisfies z.ZodType<TaskView>;
const diffFile = open({
  path: z.string(),
  from: z.string().nullable(),
  status: z.enum(["added", "deleted", "modified", "renamed"]),
  additions: int,
  deletions: int,
  binary: z.boolean(),
  shown: z.boolean(),
  hunks: z.array(open({ header: z.string(), lines: z.array(open({ kind: z.enum(["add", "del", "context"]), text: z.string() })) })),
});
export const taskDiff = open({
  source: z.string(),
  available: z.boolean(),
  files: z.array(diffFile),
  additions: int,
  deletions: int,
  truncated: z.boolean(),
  commits: z.array(open({ sha: z.string(), subject: z.string(), author: z.string() })),
}) satisfies z.ZodType<TaskDiff>;
export const outputItem = open({ seq: int, item: z.unknown(), fence: int, authorId: uuid, createdAt: when }) satisfies z.ZodType<OutputItem>;
export const taskDetail = open({
  task,
  evidence: z.array(open({ id: int, kind: z.enum(["submission", "reopen"]), authorId: uuid, evidence: z.string(), createdAt: when })),
  reviews: z.array(open({ id: int, reviewerId: uuid, verdict: z.enum(["accept", "reject"]), reason: z.string().nullable(), createdAt: when })),
  adr: open({ id: uuid, title: z.string(), context: z.string(), decision: z.string(), consequences: z.string() }).nullable(),
  outputTail: z.array(outputItem),
  thread: z.array(message),
}) satisfies z.ZodType<Pick<TaskDetail, "task" | "outputTail" | "thread">>;

const tally = open({ option: z.string(), count: int });
export const decision = open({
  id: uuid,
  number: int,
  question: z.string(),
  options: z.array(z.string()),
  defaultOption: z.string(),
  consequence: z.string(),
  quorum: int,
  status: z.string(),
  outcome: z.string().nullable(),
  timeboxAt: when,
  tally: z.array(tally),
  ballots: z.array(open({ id: uuid, voterId: uuid, option: z.string(), reasoning: z.string(), castAt: when })),
}) satisfies z.ZodType<Pick<DecisionView, "id" | "number" | "question" | "options" | "outcome" | "timeboxAt" | "quorum">>;
export const ballot = open({ id: uuid, option: z.string(), decision });

const commitmentRef = open({ id: uuid, number: int, what: z.string(), status: z.string() });
export const commitment = open({
  id: uuid,
  number: int,
  ownerId: uuid,
  ownerName: z.string(),
  what: z.string(),
  taskId: uuid.nullable(),
  dueAt: when.nullable(),
  status: z.string(),
  overdue: z.boolean(),
  blockers: z.array(commitmentRef),
  blocking: z.array(commitmentRef),
}) satisfies z.ZodType<Pick<CommitmentView, "id" | "number" | "what" | "dueAt" | "overdue" | "taskId">>;
export const commitmentGraph = open({ nodes: z.array(open({ id: uuid })), edges: z.array(open({})), criticalPath: z.array(uuid) });

export const lesson = open({
  id: uuid,
  number: int,
  text: z.string(),
  sourceId: uuid,
  sourceName: z.string(),
  taskId: uuid.nullable(),
  createdAt: when,
}) satisfies z.ZodType<Pick<LessonView, "id" | "number" | "text" | "sourceId" | "taskId" | "createdAt">>;
export const principle = open({
  id: uuid,
  text: z.string(),
  active: z.boolean(),
  promotedAt: when.nullable(),
  pinnedAt: when.nullable(),
  sources: z.array(lesson),
}) satisfies z.ZodType<Pick<PrincipleView, "id" | "text" | "active" | "promotedAt" | "pinnedAt">>;

const reservationMode = z.enum(["exclusive", "shared"]);
export const reservation = open({
  id: uuid,
  fence: int,
  scope: z.string(),
  holderId: uuid,
  holderName: z.string(),
  patterns: z.array(z.string()),
  mode: reservationMode,
  reason: z.string(),
  taskId: uuid.nullable(),
  status: z.enum(["active", "released", "expired", "force_released"]),
  ttlSeconds: int,
  expiresAt: when,
  createdAt: when,
  updatedAt: when,
  endedAt: when.nullable(),
  endedBy: uuid.nullable(),
  endReason: z.string().nullable(),
}) satisfies z.ZodType<ReservationView>;
const pathHold = open({
  path: z.string(),
  pattern: z.string(),
  reservationId: uuid,
  fence: int,
  holderId: uuid,
  holderName: z.string(),
  mode: reservationMode,
  reason: z.string(),
  expiresAt: when,
});
export const pathCheck = open({ ok: z.boolean(), blocked: z.array(pathHold), shared: z.array(pathHold) }) satisfies z.ZodType<PathCheck>;
/** Who holds what a reservation collided with (the `holders` of a 409 `reserved`). */
export const reservationHolder = open({
  reservationId: uuid,
  fence: int,
  holderId: uuid,
  holderName: z.string(),
  mode: reservationMode,
  patterns: z.array(z.string()),
  expiresAt: when,
  overlaps: z.array(open({ requested: z.string(), held: z.string(), example: z.string().optional() })),
});

export const events = open({
  items: z.array(
    open({
      id: int,
      t: when,
      kind: z.string(),
      actor: uuid.nullable(),
      actorName: z.string().nullable(),
      taskId: uuid.nullable(),
      room: z.string().nullable(),
      forMe: z.boolean(),
    }),
  ),
  next: int,
  timedOut: z.boolean(),
}) satisfies z.ZodType<EventsPage>;
export const journalEntry = open({
  id: int,
  v: int,
  t: when,
  kind: z.string(),
  actor: uuid.nullable(),
  actorName: z.string().nullable(),
  runId: z.string().nullable(),
  taskId: uuid.nullable(),
  turn: int.nullable(),
  data: z.unknown(),
}) satisfies z.ZodType<JournalEntry>;

/** A line of a journal export: the event without its actor's name. */
export const exportLine = journalEntry.omit({ actorName: true });

/** An archived month of the journal (server/retention/archives.ts). */
export const journalArchive = open({
  month: z.string(),
  from: when,
  to: when,
  events: int,
  archivedAt: when,
  file: z.string().nullable(),
  sha256: z.string(),
}) satisfies z.ZodType<JournalArchiveView>;

/** A view this document does not spell out yet: a JSON object (the explorer and bill pages' reads). */
export const anyObject = open({});

const taskStatus = z.enum(["ready", "in_progress", "review", "done", "cancelled"]);
/** A budget beside a plan or on the Bill (server/budgets/lines.ts). */
export const budgetLine = open({
  id: uuid,
  allowance: int,
  spent: int,
  remaining: int,
  exhausted: z.boolean(),
  promised: int,
  byModel: z.array(open({ model: z.string(), tokens: int })),
}) satisfies z.ZodType<BudgetLine>;
export const flight = open({
  id: uuid,
  number: int,
  goal: z.string(),
  status: z.enum(["planning", "working", "green", "red"]),
  mode: z.string(),
  source: z.string().nullable(),
  branch: z.string(),
  baseCommit: z.string().nullable(),
  testCommand: z.string().nullable(),
  setup: open({
    command: z.string(),
    source: z.string(),
    status: z.enum(["pending", "running", "done", "failed"]),
    line: z.string().nullable(),
    elapsedMs: int.nullable(),
    reused: z.boolean(),
    log: z.string().nullable(),
    at: when.nullable(),
  }).nullable(),
  mergeCommand: z.string().nullable(),
  goalTask: open({ id: uuid, number: int, title: z.string(), status: taskStatus }),
  tasks: z.array(
    open({
      id: uuid,
      number: int,
      title: z.string(),
      status: taskStatus,
      ownerName: z.string().nullable(),
      dependsOn: z.array(int),
      integrated: z.boolean(),
      budget: budgetLine.nullable(),
    }),
  ),
  budget: budgetLine.nullable(),
  alerts: z.array(open({ key: z.string(), flightId: uuid, mode: z.string(), name: z.string(), sentence: z.string(), taskIds: z.array(uuid), eventId: int, since: when })),
  createdByName: z.string().nullable(),
  createdAt: when,
  updatedAt: when,
}) satisfies z.ZodType<FlightView>;
export const flightList = open({ items: z.array(flight), defaultAllowance: int }) satisfies z.ZodType<FlightList>;
export const repositoryInspection = open({
  path: z.string(),
  head: z.string(),
  branch: z.string().nullable(),
  testCommand: z.string().nullable(),
  setup: open({ command: z.string(), source: z.enum(["given", "file", "detected"]) }).nullable(),
}) satisfies z.ZodType<RepositoryInspection>;

// The MAST monitor (server/diagnosis/).
export const finding = open({
  key: z.string(),
  mode: z.enum(["FM-1.1", "FM-1.2", "FM-1.3", "FM-1.4", "FM-1.5", "FM-2.1", "FM-2.2", "FM-2.3", "FM-2.4", "FM-2.5", "FM-2.6", "FM-3.1", "FM-3.2", "FM-3.3"]),
  name: z.string(),
  category: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  categoryName: z.string(),
  severity: z.enum(["low", "medium", "high"]),
  sentence: z.string(),
  eventIds: z.array(int),
  runIds: z.array(z.string()),
  taskIds: z.array(uuid),
  agents: z.array(uuid),
}) satisfies z.ZodType<Finding>;
export const diagnosis = open({
  scope: z.enum(["flight", "run", "task", "since"]),
  label: z.string(),
  events: int,
  truncated: z.boolean(),
  through: int.nullable(),
  findings: z.array(finding),
}) satisfies z.ZodType<DiagnosisView>;
// ——— Experiments (`quorum experiment`) and fork replay
const forkStep = open({ index: int, kind: z.string(), turn: int.nullable(), what: z.string(), tokens: int.nullable() }) satisfies z.ZodType<ForkStep>;
/** A line of a fork's answer: its progress, then its report (or why it stopped). */
export const forkLine = open({
  progress: z.string().optional(),
  report: open({
    runId: z.string(),
    until: open({ eventId: int, index: int, turn: int }),
    prefixIdentical: z.boolean(),
    workspace: z.string(),
    continuedWith: z.string(),
    original: z.array(forkStep),
    fork: z.array(forkStep),
    divergence: open({ index: int, original: forkStep.nullable(), fork: forkStep.nullable() }).nullable(),
    originalResult: open({ status: z.string() }).nullable(),
    forkResult: open({ status: z.string() }).nullable(),
    tokens: open({ original: int, fork: int }),
  }).optional(),
  error: open({ message: z.string() }).optional(),
});
export const savedExperiments = open({
  items: z.array(experimentReport.extend({ file: z.string() })),
  unreadable: z.array(z.string()),
  experiments: z.array(open({ name: z.enum(EXPERIMENT_NAMES), summary: z.string(), flags: z.string() })),
}) satisfies z.ZodType<SavedExperiments>;
/** An outside agent's reported model call, as the Bill folds it (POST /api/usage). */
export const reportedUsage = open({
  eventId: int,
  model: z.string(),
  inputTokens: int,
  outputTokens: int,
  cachedTokens: int,
  tokens: int,
  taskId: uuid.nullable(),
  selfReported: z.literal(true),
  reportedAt: when,
}) satisfies z.ZodType<ReportedUsage>;
