// One line per journal event, in words for people: principals by name, tasks by #number, rooms by #name.
// Ids stay in the row's expanded JSON. Every kind has its line (the type check fails until a new one does).
import type { EventKind } from "@/domain/journal/kinds";
import type { EventPayloads } from "@/domain/journal/payloads";
import type { JournalEntry } from "../types";

/** How the line names things it only knows by id. */
export interface Names {
  /** A principal's name ("someone" when unknown to this page). */
  who(id: string | null | undefined): string;
  /** A task as "#12" (or "a task"). */
  task(id: string | null | undefined): string;
}

const cut = (text: unknown, n = 100) => {
  const s = String(text ?? "").replace(/\s+/g, " ");
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
};
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const tokens = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : String(n));
const paths = (patterns: string[]) => cut(patterns.join(", "), 60);
/** "owner/repo" of a repository's URL, as its forge names it. */
const repository = (remote: string) =>
  remote
    .replace(/\.git$/, "")
    .split("/")
    .slice(-2)
    .join("/");
/** What changed of a forge's settings, in words. */
function forgeSettingsWords(d: EventPayloads["ForgeSettingsChanged"]): string {
  const said: string[] = [];
  if (d.intakeLabel !== undefined) said.push(d.intakeLabel ? `took issues labelled "${cut(d.intakeLabel, 50)}" as flight proposals` : "stopped taking issues as flight proposals");
  if (d.pollPullRequests !== undefined) said.push(d.pollPullRequests ? "turned polling on" : "turned polling off");
  if (d.webhookSecret) said.push(`${d.webhookSecret} the webhook secret`);
  return `${said.join(", ") || "changed the settings"} for ${d.host}`;
}
/** "October 2026": an archived month, as the month it is in UTC. */
const monthName = (from: string) => new Date(from).toLocaleDateString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
const FIELD_WORDS = {
  title: "its title",
  description: "its description",
  acceptanceCriteria: "its acceptance criteria",
  approverId: "its approver",
  targetTests: "its target tests",
} as const;

type Line<K extends EventKind> = (d: EventPayloads[K], e: JournalEntry, n: Names) => string;

const LINES: { [K in EventKind]: Line<K> } = {
  // the runtime
  RunStarted: (d) => `began a run on ${d.model}: ${cut(d.task, 80)}`,
  ModelCalled: (d) => `asked the model (turn ${d.turn}${d.mail.length ? `, ${plural(d.mail.length, "new message")}` : ""})`,
  ModelResponded: (d) => {
    const tools = d.toolCalls.map((c) => c.name).filter((name) => name !== "done");
    if (tools.length) return `decided to use ${tools.join(", ")}`;
    return d.toolCalls.length ? "decided it was done" : `answered: ${cut(d.text)}`;
  },
  BudgetDebited: (d) => `spent ${tokens(d.amount)} tokens ${d.model === "scripted" ? "following its script (no model)" : `on ${d.model}`}`,
  ToolDispatched: (d) => `called ${d.tool}${d.attempt > 1 ? ` (attempt ${d.attempt})` : ""}`,
  ToolReturned: (d) => {
    // A test run says which tests failed (agents/tools/run-tests.ts), where its runner names them.
    const summary = (d.observation as { result?: { summary?: unknown } }).result?.summary;
    return `${d.tool} ${d.observation.is_error ? "failed" : "returned"}${typeof summary === "string" ? `: ${cut(summary, 160)}` : ""}`;
  },
  MessageSent: (d, _e, n) => `${d.to ? `wrote to ${n.who(d.to)} in` : "posted in"} #${d.room}${d.performative ? ` (${d.performative})` : ""}: ${cut(d.body)}`,
  MessageDelivered: (d, e, n) =>
    d.via === "inbox"
      ? `#${d.room} message ${d.seq} delivered to ${plural(d.recipients.length, "reader")}`
      : e.actor === d.recipient
        ? `received a digest of ${plural(d.messageIds.length, "message")}`
        : `sent ${n.who(d.recipient)} a digest of ${plural(d.messageIds.length, "message")}`,
  AgentFinished: (d) => `finished the run: ${d.result.status.replaceAll("_", " ")}`,
  BudgetExhausted: () => "was halted: its budget ran out",
  ModelFailed: (d) => `could not use the model${d.permanent ? "" : d.attempts ? ` after ${plural(d.attempts, "try", "tries")}` : ""}: ${cut(d.error, 80)}`,
  ModelRetried: (d) => `will ask the model again in ${Math.round(d.delayMs / 100) / 10} s (try ${d.attempt} failed: ${cut(d.error, 60)})`,
  ToolRetried: (d) => `retried ${d.tool}`,
  StopRequested: (d) => `asked the run to stop: ${cut(d.reason, 80)}`,
  ResumeRequested: (d) => `asked the team to resume the run: ${cut(d.reason, 80)}`,
  RunStopped: () => "stopped the run",
  BudgetCreated: (d, _e, n) => `funded ${n.who(d.ownerId)} with ${tokens(d.allowance)} tokens`,
  BudgetAllowanceChanged: (d) => `set an allowance to ${tokens(d.allowance)} tokens`,
  // principals and rooms
  InvitationCreated: (d) => `invited ${d.name}`,
  InvitationRevoked: (d) => `revoked the invitation of ${d.name}`,
  InvitationAccepted: (d) => `joined by invitation, as ${d.name}`,
  HumanRemoved: (d) => `removed ${d.name}`,
  HumanRestored: (d) => `${d.name} was added back`,
  PrincipalCreated: (d) => `added ${d.kind === "human" ? "the human" : d.kind === "agent" ? "the agent" : ""} ${d.name}${d.role ? ` (${d.role})` : ""}`,
  AgentKeyIssued: (d, _e, n) => `issued a key for ${n.who(d.principalId)}`,
  AgentKeyRotated: (d) => `rotated ${d.name}'s key`,
  AgentKeysRevoked: (d) => `revoked ${d.name}'s keys`,
  HumanSignedIn: () => "signed in",
  SessionEnded: () => "signed out",
  RoomCreated: (d) => `opened the room #${d.room}`,
  CursorAdvanced: (d) => `read #${d.room} up to message ${d.seq}`,
  GateRejected: (d) => `was held back in #${d.room} by the ${d.gate.replace("_", "-")} gate`,
  // the relay
  FocusWindowOpened: (d, _e, n) => `began focusing on ${n.task(d.taskId)}`,
  FocusWindowClosed: (d, _e, n) => `stopped focusing on ${n.task(d.taskId)}`,
  DigestFlushed: (d) => `caught up on ${plural(d.count, "held message")}`,
  // the task board
  TaskEdited: (d, _e, n) =>
    `edited #${d.number} ${cut(d.title, 80)}: ${d.changed.map((f) => FIELD_WORDS[f]).join(", ")}${d.changed.includes("approverId") ? ` (approver now ${n.who(d.approverId)})` : ""}`,
  TaskCreated: (d, _e, n) => `filed #${d.number} ${cut(d.title, 80)} (approver ${n.who(d.approverId)})`,
  TaskClaimed: (d) => `claimed #${d.number}`,
  LeaseRenewed: (_d, e, n) => `renewed the lease on ${n.task(e.taskId)}`,
  OutputAppended: (d, e, n) => `added ${plural(d.count, "output item")} to ${n.task(e.taskId)}`,
  LeaseExpired: (d, _e, n) => `#${d.number}'s lease ran out${d.ownerId ? ` (${n.who(d.ownerId)})` : ""}`,
  TaskOffered: (d) => `offered #${d.number} to ${d.toName}`,
  TaskSubmitted: (d) => `submitted #${d.number} for review: ${cut(d.summary, 80)}`,
  TaskReviewed: (d) =>
    `${d.verdict === "accept" ? "accepted" : "asked for changes on"} #${d.number}${d.comments ? ` with ${d.comments} line ${d.comments === 1 ? "comment" : "comments"}` : ""}${d.reason ? `: ${cut(d.reason, 80)}` : ""}`,
  ReviewCommented: (d) => `commented on ${d.path}:${d.line}${d.endLine > d.line ? `-${d.endLine}` : ""} of #${d.number}: ${cut(d.body, 80)}`,
  ReviewCommentWithdrawn: (d) => `withdrew a comment on #${d.number}`,
  TaskReopened: (d) => `reopened #${d.number} with new evidence`,
  TaskCancelled: (d) => `cancelled #${d.number}: ${cut(d.adrTitle, 80)}`,
  // decisions, commitments and memory
  DecisionOpened: (d) => `opened D-${d.number}: ${cut(d.question, 80)}`,
  BallotCast: (d) => `voted ${d.option} on D-${d.number}`,
  DecisionClosed: (d) => `D-${d.number} closed: ${d.outcome}`,
  DecisionEscalated: (d) => `D-${d.number} went to the humans (${d.reason === "tie" ? "a tie" : "time ran out"})`,
  EscalationResolved: (d) => `decided D-${d.number}: ${d.option}${d.wasDefault ? " (the default)" : ""}`,
  DefaultAdopted: (d) => `D-${d.number} took its default: ${d.outcome}`,
  CommitmentProposed: (d) => `promised C-${d.number}: ${cut(d.what, 80)}`,
  CommitmentConfirmed: (d) => `confirmed C-${d.number}`,
  CommitmentFulfilled: (d) => `fulfilled C-${d.number}`,
  CommitmentWithdrawn: (d) => `withdrew C-${d.number}`,
  DependencyAdded: (d) => `made C-${d.blockedNumber} wait on C-${d.blockerNumber}`,
  ReminderSent: (d, _e, n) => `reminded ${n.who(d.ownerId)} that C-${d.blockedNumber} waits on C-${d.blockerNumber}`,
  LessonRecorded: (d) => `recorded a lesson: ${cut(d.text, 80)}`,
  PrinciplePromoted: (d) => `promoted a principle: ${cut(d.text, 80)}`,
  PrinciplePinned: (d) => `pinned a principle: ${cut(d.text, 80)}`,
  PrincipleUnpinned: () => "unpinned a principle",
  // path reservations
  ReservationGranted: (d) => `reserved ${paths(d.patterns)} (${d.mode})`,
  ReservationRenewed: () => "renewed a reservation",
  ReservationReleased: (d) => `released ${paths(d.patterns)}`,
  ReservationExpired: (d, _e, n) => `${n.who(d.holderId)}'s reservation of ${paths(d.patterns)} expired`,
  ReservationForceReleased: (d, _e, n) => `ended ${n.who(d.holderId)}'s reservation of ${paths(d.patterns)}: ${cut(d.reason, 60)}`,
  // webhooks and stalled agents
  AgentStalled: (d) => `${d.agentName} went quiet on #${d.number}`,
  WebhookAdded: (d) => `added a webhook to ${d.host}`,
  WebhookRemoved: (d) => `removed the webhook to ${d.host}`,
  WebhookTestQueued: () => "sent a webhook test",
  WebhookDelivered: (d) => `delivered ${d.type} to a webhook (${d.status})`,
  WebhookFailed: (d) => `could not deliver ${d.type} to a webhook: ${cut(d.error, 60)}`,
  WebhookDisabled: (d) => `turned off the webhook to ${d.host} after repeated failures`,
  // forges
  ForgeHostAdded: (d) => `connected ${d.host}`,
  ForgeTokenReplaced: (d) => `replaced the token for ${d.host}`,
  ForgeHostRemoved: (d) => `disconnected ${d.host}`,
  ForgeSettingsChanged: forgeSettingsWords,
  // the built-in team
  TeamStarted: (d) => `the team started (${d.roles.join(", ")}; ${d.mode === "scripted" ? "scripted" : `on ${d.mode}`})`,
  FlightLaunched: (d) => `launched a flight: ${cut(d.goal, 80)}`,
  FlightAllowanceSet: (d, _e, n) =>
    d.tokens === 0 ? `stopped ${n.who(d.agentId)} starting flights` : `allowed ${n.who(d.agentId)} to start flights of up to ${tokens(d.tokens)} tokens in all`,
  FindingAnswered: (d) => `${d.verdict === "acknowledged" ? "acknowledged" : "said it is not a failure:"} ${d.mode}${d.note ? ` (${cut(d.note, 80)})` : ""}`,
  FlightBaselineRan: (d) => `ran the suite at the base commit: ${cut(d.summary, 140)}`,
  FlightSetupStarted: (d) => `began the flight's setup: ${cut(d.command, 80)}`,
  FlightSetupProgress: (d) => `setting up (${Math.round(d.elapsedMs / 1000)} s): ${cut(d.line, 80)}`,
  FlightSetupEnded: (d) =>
    d.ok
      ? d.reused
        ? `reused the environment of an earlier setup (${cut(d.command, 60)})`
        : `set up the flight in ${Math.round(d.elapsedMs / 1000)} s (${cut(d.command, 60)})`
      : `the flight's setup failed: ${cut(d.reason ?? "", 100)}`,
  FlightPlanningStarted: () => "began planning the flight",
  FlightTaskAdded: (d) => `added #${d.number} to the flight`,
  FlightPlanned: (d) => `planned the flight: ${d.tasks.map((t) => `#${t.number}`).join(", ") || "no tasks"}`,
  TaskIntegrated: (d, e, n) => `merged ${n.task(e.taskId)} into ${d.branch ?? "main"} (${d.commit.slice(0, 7)})`,
  FlightChangesRequested: (d) => `filed #${d.task} for the changes asked on the goal${d.comments ? ` (${d.comments} line ${d.comments === 1 ? "comment" : "comments"})` : ""}`,
  FlightReplanning: (d, e, n) =>
    d.replan
      ? `took ${n.task(e.taskId)} back after ${d.tries} tries to re-plan around it`
      : `could not finish ${n.task(e.taskId)} after ${d.tries} tries, and had re-planned once already`,
  FlightReplanned: (d) =>
    `re-planned around #${d.handedBack}: ${d.cancelled.length ? `cancelled ${d.cancelled.map((c) => `#${c}`).join(", ")}, ` : ""}${d.tasks.length ? `filed ${d.tasks.map((t) => `#${t.number}`).join(", ")}` : "filed nothing new"}`,
  IntegrationRefused: (d, e, n) =>
    `did not merge ${n.task(e.taskId)}: ${d.branch} had moved to ${d.actual.slice(0, 7)} by ${plural(d.unexplained.length, "commit")} no reviewed task explains, so the flight waits for its human`,
  IntegrationConflicted: (d, e, n) => `could not merge ${n.task(e.taskId)} into ${d.branch}: it conflicts in ${cut(d.files.join(", "), 80)}, so it went back for rework`,
  FlightBranchPublished: (d) =>
    d.refused ? `could not publish ${d.branch} to ${d.source}: ${cut(d.refused, 80)}` : `published ${d.branch} to ${d.source} (${d.commit.slice(0, 7)})`,
  SuiteStarted: (d) => `ran the suite on ${plural(d.taskIds.length, "integrated task")}`,
  SuiteRan: (d) => `the suite ${d.passed ? "passed" : "failed"} on main`,
  ReplyReasked: (d, _e, n) => `asked ${n.who(d.awaiting)} again for a reply`,
  ReplyEscalated: (d, _e, n) => `escalated: ${n.who(d.awaiting)} did not reply`,
  ReworkAbandoned: (d) => `gave up on rework after ${plural(d.rejections, "rejection")}`,
  TaskReleased: (d, e, n) =>
    d.handedTo ? `handed ${n.task(e.taskId)} back to ${n.who(d.handedTo)}: ${cut(d.reason, 80)}` : `released ${n.task(e.taskId)} back to ready: ${cut(d.reason, 80)}`,
  FlightPullRequestOpened: (d) => `opened pull request #${d.pullRequest} for flight ${d.number} (${d.branch} into ${d.base})`,
  FlightForgeRefused: (d) => d.reason,
  FlightForgeAnswered: (d) => `the forge answered flight ${d.number}'s pull request again`,
  FlightPullRequestReady: (d) => `marked draft pull request #${d.pullRequest} of flight ${d.number} ready for review: its goal was accepted`,
  FlightPullRequestFeedback: (d) =>
    d.feedback === "review"
      ? `filed task #${d.task}: ${d.from} asked for changes on pull request #${d.pullRequest}${d.lines ? ` (${d.lines} line ${d.lines === 1 ? "comment" : "comments"})` : ""}`
      : `filed task #${d.task}: the check "${d.from}" failed on pull request #${d.pullRequest}`,
  FlightPullRequestChecks: (d) => `read the checks of pull request #${d.pullRequest} (flight ${d.number}): ${d.passed} passed, ${d.failed} failed, ${d.pending} to come`,
  ForgeDeliveryReceived: (d) => `received ${d.host}'s "${d.event}" webhook${d.flightNumber ? ` about flight ${d.flightNumber}` : ""}`,
  FlightPullRequestMerged: (d) => `saw pull request #${d.pullRequest} of flight ${d.number} merged on its forge`,
  FlightPullRequestClosed: (d) => `saw pull request #${d.pullRequest} of flight ${d.number} closed on its forge without merging`,
  FlightMerged: (d) => `merged flight ${d.number} into ${d.into} (${d.how}, now at ${d.commit.slice(0, 7)})`,
  FlightClosed: (d) => `closed flight ${d.number} without merging: ${cut(d.reason, 140)}`,
  // issues labelled for the team
  FlightProposed: (d) => `proposed a flight from issue #${d.issue} on ${repository(d.remote)}: ${cut(d.title, 80)}`,
  FlightProposalStarted: (d) => `started flight ${d.number} from issue #${d.issue} on ${repository(d.remote)}`,
  FlightProposalDismissed: (d) => `dismissed the flight proposed from issue #${d.issue} on ${repository(d.remote)}`,
  FlightRetried: (d, e, n) => `asked for the flight of ${n.task(e.taskId)} again, ${d.mode.startsWith("scripted") ? "scripted" : `live on ${d.mode}`}`,
  // the MAST monitor
  DiagnosisFound: (d) => `the monitor found ${d.mode} ${d.name} (${d.severity}): ${cut(d.sentence, 140)}`,
  // retention
  JournalArchived: (d) => `archived the journal of ${monthName(d.from)} (${plural(d.events, "event")}) to ${d.file}`,
  JournalRestored: (d) => `restored the journal of ${monthName(d.from)} (${plural(d.events, "event")}) from ${d.file}`,
  // agents outside Quorum
  UsageReported: (d, e, n) => `reported spending ${tokens(d.amount)} tokens on ${d.model}${e.taskId ? ` for ${n.task(e.taskId)}` : ""} (self-reported)`,
};

/** A kind as words ("CursorAdvanced" → "cursor advanced"): rows and the Kind filter name what happened, not the type. */
export function kindWords(kind: string): string {
  return kind.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
}

/** The event's line: who, then what, in words. An unknown kind (a newer server) says only its kind. */
export function lineOf(entry: JournalEntry, names: Names): string {
  const line = Object.hasOwn(LINES, entry.kind) ? (LINES[entry.kind as EventKind] as Line<EventKind>) : undefined;
  if (!line) return `${entry.actorName ?? "Quorum"}: ${kindWords(entry.kind)}`;
  const what = line(entry.data as never, entry, names);
  // Lines that name their own subject (a run's outcome, the team) read without the actor.
  return entry.actorName ? `${entry.actorName} ${what}` : what.charAt(0).toUpperCase() + what.slice(1);
}

export { LINES as EVENT_LINES };
