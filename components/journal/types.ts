// Shapes of the explorer's views as the browser receives them (mirrors of server/journal views).
export interface TaskHeader {
  id: string;
  number: number;
  title: string;
  status: string;
  ownerId: string | null;
  ownerName: string | null;
  approverId: string;
  approverName: string | null;
}

interface Base {
  eventId: number;
  t: string;
  actor: string | null;
  actorName: string | null;
}

export type ThreadEntry =
  | (Base & { type: "message"; messageId: number; room: string; seq: number; to: string | null; performative: string | null; body: string })
  | (Base & { type: "transition"; kind: string; data: Record<string, unknown> })
  | (Base & { type: "run"; kind: string; runId: string | null; status: string; summary: string | null });

interface Who {
  eventId: number;
  t: string;
  by: string | null;
  byName: string | null;
}

export interface Submission extends Who {
  via: "board" | "run" | "message";
  summary: string;
  evidence: string[];
  evidenceId: string | null;
}

export interface Verdict extends Who {
  via: "review" | "message";
  verdict: "accept" | "reject";
  reason: string | null;
  on: Submission | null;
}

export interface TaskAudit {
  task: TaskHeader;
  submissions: Submission[];
  verdicts: Verdict[];
  accepted: boolean;
}

export type Observation = { is_error: false; result: unknown } | { is_error: true; reason: string; recovery_hint: string; transient?: boolean };

export interface Mail {
  messageId: number;
  room: string;
  from: string;
  fromName: string | null;
  performative: string | null;
  body: string;
}

export interface TimelineTurn {
  turn: number;
  calledEventId: number;
  t: string;
  mail: Mail[];
  context: { messages: number; estimatedTokens: number; droppedSteps: number } | null;
  respondedEventId: number | null;
  response: { text: string; toolCalls: { id: string; name: string; arguments: unknown }[]; usage: { inputTokens: number; outputTokens: number; cachedTokens: number; estimated: boolean }; model: string } | null;
  failed: string | null;
  debit: { eventId: number; amount: number; inputTokens: number; outputTokens: number; cachedTokens: number; estimated: boolean; model: string } | null;
  calls: {
    index: number;
    callId: string;
    tool: string;
    arguments: unknown;
    args: unknown;
    writes: string | null;
    attempts: { attempt: number; startedEventId: number | null; retriedAfter: string | null; returnedEventId: number | null; observation: Observation | null }[];
  }[];
}

export interface RunResult {
  status: string;
  turns: number;
  spent: number;
  summary?: string;
  evidence?: string[];
  reason?: string;
  budgetId?: string;
  allowance?: number;
  budgetSpent?: number;
}

export interface Timeline {
  runId: string;
  agentId: string | null;
  agentName: string | null;
  taskId: string | null;
  startedEventId: number | null;
  startedAt: string | null;
  config: { task: string; system: string; principles: string[]; tools: { name: string; description: string }[]; maxTurns: number; model: string; budgetIds: string[] } | null;
  turns: TimelineTurn[];
  stopRequests: { eventId: number; t: string; byName: string | null; reason: string }[];
  result: RunResult | null;
  endedEventId: number | null;
  status: string;
  tokens: { total: number; input: number; output: number; cached: number };
  events: number;
  lastEventId: number | null;
}

export interface Comparable {
  kind: string;
  actor: string | null;
  taskId: string | null;
  turn: number | null;
  data: unknown;
}

export interface ReplayReport {
  runId: string | null;
  identical: boolean;
  recorded: number;
  replayed: number;
  result: RunResult | null;
  ended: "finished" | "halted" | "stopped" | "recording_ended" | "diverged";
  divergence?: { index: number; expected: Comparable | null; actual: Comparable | null };
}

export interface Finding {
  signature: "duplicate_work" | "unanswered_request" | "done_without_evidence" | "transient_error_absorbed";
  summary: string;
  runIds: string[];
  agents: string[];
  eventIds: number[];
}
