// Which react-query caches each journal event makes stale: one entry per kind of the journal, so a
// new kind in domain/journal/kinds.ts fails the type check here until it is placed.
import type { QueryKey } from "@tanstack/react-query";
import type { EventKind } from "@/domain/journal/kinds";
import type { EventNotice } from "@/domain/journal/listen";
import { queryKeys as k } from "./query-keys";

/** What the stream sends for each committed event (`/api/stream`, event `journal`). */
export type Notice = Omit<EventNotice, "kind"> & { kind: EventKind };

/** The caches a kind makes stale beyond the journal's: a fixed list, or a function of the notice. */
type Stale = readonly QueryKey[] | ((notice: Notice) => QueryKey[]);

const NONE: Stale = [];
/** An agent's lease, load, success rate, presence or gate record: the roster and the agent pages. */
const ROSTER: readonly QueryKey[] = [k.roster(), k.agents()];
/** The bill folds these; spend, budgets and runs show on the Bill, the roster and agent pages. */
const BILL: readonly QueryKey[] = [k.bill(), ...ROSTER];
const TASKS: readonly QueryKey[] = [k.tasks()];
/** A flight's allowance and its plan's shares (the Bill's flight tables); their spend arrives as BILL kinds. */
const FLIGHT_BUDGETS: readonly QueryKey[] = [k.billFlights()];
const TASKS_AND_ROSTER: readonly QueryKey[] = [...ROSTER, k.tasks()];
const PRESENCE: readonly QueryKey[] = [k.presence()];
const DECISIONS: readonly QueryKey[] = [k.decisions()];
/** What waits for the human: escalations, reviews, requests addressed to them (domain/desk/waiting.ts). */
const WAITING: readonly QueryKey[] = [k.waiting()];
const COMMITMENTS: readonly QueryKey[] = [k.commitments()];
const RESERVATIONS: readonly QueryKey[] = [k.reservations()];
const MEMORY: readonly QueryKey[] = [k.memory()];
const WEBHOOKS: readonly QueryKey[] = [k.webhooks()];
const FORGES: readonly QueryKey[] = [k.forges()];
/** A flight's status, plan or spend: the Board's flights (task changes reach them through TASKS, as do merges, which change diffs too). */
const FLIGHTS: readonly QueryKey[] = [k.flights()];
/** Spend and allowances: the bill, and a flight's spend against its allowance. */
const SPEND: readonly QueryKey[] = [...BILL, ...FLIGHTS];

const STALE = {
  // the runtime
  RunStarted: BILL,
  ModelCalled: NONE,
  ModelResponded: NONE,
  BudgetDebited: SPEND,
  ToolDispatched: NONE,
  ToolReturned: NONE,
  MessageSent: (n) => [
    ...ROSTER,
    ...(n.room ? [k.messages(n.room)] : []),
    // A message on a task's thread shows in the board's drawer.
    ...(n.taskId ? [k.taskDetail(n.taskId)] : []),
    // A sender is present, and focusing agents' digests grew.
    k.presence(),
    // A request to someone, or their answer.
    ...WAITING,
  ],
  MessageDelivered: NONE,
  AgentFinished: BILL,
  BudgetExhausted: SPEND,
  ModelFailed: [k.team()],
  ModelRetried: NONE,
  ToolRetried: NONE,
  StopRequested: NONE,
  ResumeRequested: NONE,
  RunStopped: BILL,
  BudgetCreated: SPEND,
  BudgetAllowanceChanged: SPEND,
  // principals and rooms
  PrincipalCreated: [...ROSTER, k.principals(), k.presence()],
  InvitationCreated: [k.invitations()],
  InvitationRevoked: [k.invitations()],
  InvitationAccepted: [k.invitations(), k.humans(), ...ROSTER, k.principals(), k.presence()],
  HumanRemoved: [k.humans(), ...ROSTER, k.principals(), k.presence()],
  HumanRestored: [k.humans(), ...ROSTER, k.principals(), k.presence()],
  AgentKeyIssued: NONE,
  AgentKeyRotated: NONE,
  AgentKeysRevoked: NONE,
  HumanSignedIn: [k.principals(), k.presence()],
  SessionEnded: NONE,
  RoomCreated: [k.rooms()],
  CursorAdvanced: NONE,
  GateRejected: (n) => [...ROSTER, ...(n.room ? [k.gates(n.room)] : []), k.presence()],
  // the relay
  FocusWindowOpened: PRESENCE,
  FocusWindowClosed: PRESENCE,
  DigestFlushed: PRESENCE,
  // the task board
  TaskCreated: TASKS,
  TaskEdited: TASKS,
  TaskClaimed: TASKS_AND_ROSTER,
  LeaseRenewed: TASKS,
  OutputAppended: TASKS,
  LeaseExpired: TASKS_AND_ROSTER,
  TaskOffered: TASKS,
  TaskSubmitted: [...TASKS_AND_ROSTER, ...WAITING],
  TaskReviewed: [...TASKS_AND_ROSTER, ...WAITING],
  ReviewCommented: TASKS,
  ReviewCommentWithdrawn: TASKS,
  TaskReopened: TASKS,
  TaskCancelled: [...TASKS_AND_ROSTER, ...WAITING],
  // decisions, commitments and memory
  DecisionOpened: DECISIONS,
  BallotCast: DECISIONS,
  DecisionClosed: DECISIONS,
  DecisionEscalated: [...DECISIONS, ...WAITING],
  EscalationResolved: [...DECISIONS, ...WAITING],
  DefaultAdopted: [...DECISIONS, ...WAITING],
  CommitmentProposed: COMMITMENTS,
  CommitmentConfirmed: COMMITMENTS,
  CommitmentFulfilled: COMMITMENTS,
  CommitmentWithdrawn: COMMITMENTS,
  DependencyAdded: COMMITMENTS,
  ReminderSent: COMMITMENTS,
  LessonRecorded: MEMORY,
  PrinciplePromoted: MEMORY,
  PrinciplePinned: MEMORY,
  PrincipleUnpinned: MEMORY,
  // path reservations
  ReservationGranted: RESERVATIONS,
  ReservationRenewed: RESERVATIONS,
  ReservationReleased: RESERVATIONS,
  ReservationExpired: RESERVATIONS,
  ReservationForceReleased: RESERVATIONS,
  // webhooks and stalled agents
  AgentStalled: TASKS_AND_ROSTER,
  WebhookAdded: WEBHOOKS,
  WebhookRemoved: WEBHOOKS,
  WebhookTestQueued: WEBHOOKS,
  WebhookDelivered: WEBHOOKS,
  WebhookFailed: WEBHOOKS,
  WebhookDisabled: WEBHOOKS,
  // forges
  ForgeHostAdded: FORGES,
  ForgeTokenReplaced: FORGES,
  ForgeHostRemoved: FORGES,
  ForgeSettingsChanged: FORGES,
  // the built-in team: a flight's own progress shows on the Board's flights (the rest arrives as the kinds above)
  TeamStarted: [k.team()],
  FlightLaunched: [...FLIGHTS, ...FLIGHT_BUDGETS, ...ROSTER],
  FlightAllowanceSet: ROSTER,
  FlightSetupStarted: FLIGHTS,
  FlightSetupProgress: FLIGHTS,
  FlightSetupEnded: FLIGHTS,
  FlightBaselineRan: FLIGHTS,
  FlightPlanningStarted: FLIGHTS,
  FlightTaskAdded: FLIGHTS,
  FlightPlanned: [...FLIGHTS, ...FLIGHT_BUDGETS],
  TaskIntegrated: TASKS,
  IntegrationConflicted: TASKS,
  IntegrationRefused: [...TASKS, ...FLIGHTS],
  FlightReplanning: FLIGHTS,
  FlightChangesRequested: [...FLIGHTS, ...TASKS],
  FlightReplanned: [...FLIGHTS, ...FLIGHT_BUDGETS],
  FlightBranchPublished: TASKS,
  SuiteStarted: NONE,
  SuiteRan: FLIGHTS,
  ReplyReasked: NONE,
  ReplyEscalated: NONE,
  ReworkAbandoned: NONE,
  // a run that failed hands its task back: the board, what waits for the human, the model's state
  TaskReleased: [...TASKS, ...WAITING, k.team()],
  FlightRetried: [...TASKS, ...WAITING, k.team()],
  // an ended flight leaves the hub's allowance (the top strip, the Bill's header)
  FlightMerged: [...FLIGHTS, k.bill()],
  FlightPullRequestOpened: FLIGHTS,
  FlightPullRequestReady: FLIGHTS,
  FlightForgeRefused: [...FLIGHTS, ...WAITING],
  FlightForgeAnswered: [...FLIGHTS, ...WAITING],
  FlightPullRequestFeedback: FLIGHTS,
  FlightPullRequestChecks: FLIGHTS,
  ForgeDeliveryReceived: NONE,
  // ended on the forge: as a flight that ends here
  FlightPullRequestMerged: [...FLIGHTS, k.bill()],
  FlightPullRequestClosed: [...FLIGHTS, k.bill()],
  FlightClosed: [...FLIGHTS, ...TASKS, ...WAITING, k.bill()],
  // a labelled issue waits for a human until one starts its flight (which FlightLaunched shows) or dismisses it
  FlightProposed: WAITING,
  FlightProposalStarted: [...WAITING, ...FLIGHTS],
  FlightProposalDismissed: WAITING,
  // the MAST monitor: a flight's Diagnosis panel, a high finding on its Board card and in what waits for the human
  DiagnosisFound: [k.diagnoses(), ...FLIGHTS, ...WAITING],
  FindingAnswered: [k.diagnoses(), ...WAITING],
  // retention: every view that reaches back now stops at another month (the folds themselves do not change)
  JournalArchived: [k.everyRun(), k.everyTaskJournal()],
  JournalRestored: [k.everyRun(), k.everyTaskJournal()],
  // agents outside Quorum: their self-reported spend is on the bill
  UsageReported: BILL,
} satisfies Record<EventKind, Stale>;

/**
 * Every event shows in the journal, and in the explorer's views of its run (timeline, diagnosis) and
 * task (thread, audit); the rest depends on the kind. A kind this page does not know (a newer or older
 * server) still refreshes those.
 */
export function staleQueries(notice: Notice): QueryKey[] {
  const keys: QueryKey[] = [k.journal()];
  if (notice.runId) keys.push(k.run(notice.runId));
  if (notice.taskId) keys.push(k.taskJournal(notice.taskId));
  const stale: Stale | undefined = Object.hasOwn(STALE, notice.kind) ? STALE[notice.kind] : undefined;
  if (stale) keys.push(...(typeof stale === "function" ? stale(notice) : stale));
  return keys;
}
