// The runtime's own types and the journal events a run writes with them: the contract the loop writes
// and the folds read. The run's kinds join the journal's payload map here (the `declare module` at the
// end), so the journal names them without importing the runtime. docs/EVENTS.md describes each kind; a
// change here is a schema change (bump `v`, keep old cases).

export interface ToolCall {
  /** Unique within one response; the loop pairs each observation with it. */
  id: string;
  name: string;
  /** As the model sent them: validated against the tool's schema before anything runs. */
  arguments: unknown;
}

export interface Usage {
  /** Every input token, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** Of the input, how many the vendor served from its cache. */
  cachedTokens: number;
  /** True when the server reported no usage and the client estimated it. */
  estimated: boolean;
}

export interface ModelResponse {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  /** The model that answered, as its server named it. */
  model: string;
}

/** What a tool hands back: a result, or an error the model can act on. Never an exception. */
export type Observation = { is_error: false; result: unknown } | { is_error: true; reason: string; recovery_hint: string; transient?: boolean };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments (what the model must send). */
  parameters: Record<string, unknown>;
  /** Safe to run again with the same arguments: the loop retries or re-runs only these. */
  idempotent: boolean;
}

/** A message delivered to the agent, as folded into one turn's context. */
export interface Mail {
  messageId: number;
  room: string;
  from: string;
  fromName: string | null;
  /** Who sent it: a human steering, an agent, or Quorum itself (absent in runs journalled before it was kept). */
  fromKind?: "human" | "agent" | "system";
  /** Sent to the agent, or naming it with an @mention (not only said in its room). */
  addressed?: boolean;
  performative: string | null;
  taskId: string | null;
  body: string;
}

/** RunStarted's data: everything needed to continue or replay the run besides the journal. */
export interface RunConfig {
  task: string;
  system: string;
  principles: string[];
  tools: ToolSpec[];
  budgetId: string | null;
  /** The run's budget and its ancestors, nearest first: every debit names them all. */
  budgetIds: string[];
  maxTurns: number;
  /** Extra tries the loop gives a transient error of an idempotent tool. */
  retryAttempts: number;
  /** Context window limit in tokens, as the client estimates them. */
  contextLimit: number;
  /** The client that drives the run, as it names itself (`scripted`, `<wire>:<model>` for a live one). */
  model: string;
  /** The REQUEST this run answers, when it was started by one. */
  requestId: number | null;
  /**
   * The OpenTelemetry trace its drives are exported under (32 hex digits), when the run began with tracing on
   * (agents/run-tracing.ts); absent otherwise. Replay copies RunStarted as recorded, so it stays identical.
   */
  traceId?: string;
  /**
   * The files its tools started from, as a git tree in its flight's clone (a coder's worktree, uncommitted
   * changes included): what a fork rebuilds its scratch copy from (agents/fork.ts). Absent for runs recorded
   * before, and for runs outside a flight.
   */
  workspace?: { tree: string };
}

interface Tally {
  /** Model calls made. */
  turns: number;
  /** Tokens this run debited. */
  spent: number;
}

/** How a run ended; `halted` and `stopped` may be resumed, the others are final. */
export type RunResult =
  | ({ status: "done"; summary: string; evidence: string[] } & Tally)
  | ({ status: "halted"; budgetId: string; allowance: number; budgetSpent: number } & Tally)
  | ({ status: "inconclusive"; reason: string } & Tally)
  | ({ status: "out_of_turns" } & Tally)
  | ({ status: "stopped"; reason: string } & Tally);

export type RunStatus = RunResult["status"];

export interface ModelCalledData {
  turn: number;
  mail: Mail[];
  context: { messages: number; estimatedTokens: number; droppedSteps: number };
}

export interface BudgetDebitedData {
  amount: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  estimated: boolean;
  model: string;
  budgetIds: string[];
}

export interface ToolDispatchedData {
  index: number;
  callId: string;
  tool: string;
  args: unknown;
  attempt: number;
  /** The artefact this call writes (a path inside the tool's root), if it writes one. */
  writes: string | null;
}

export interface ToolRetriedData {
  index: number;
  callId: string;
  tool: string;
  attempt: number;
  after: string;
}

export interface ToolReturnedData {
  index: number;
  callId: string;
  tool: string;
  attempt: number;
  observation: Observation;
}

/** What operators write into a run's journal: their requests, not the run's own steps (no fence moves for them). */
export const OPERATOR_KINDS = ["StopRequested", "ResumeRequested"] as const;

type Ended<S extends RunStatus> = { result: Extract<RunResult, { status: S }> };

declare module "../journal/payloads" {
  /** The kinds a run writes about itself (./fence.ts; an operator's StopRequested comes from ./request-stop.ts). */
  interface EventPayloads {
    RunStarted: RunConfig;
    ModelCalled: ModelCalledData;
    ModelResponded: ModelResponse;
    BudgetDebited: BudgetDebitedData;
    ToolDispatched: ToolDispatchedData;
    ToolReturned: ToolReturnedData;
    AgentFinished: Ended<"done" | "inconclusive" | "out_of_turns">;
    BudgetExhausted: Ended<"halted">;
    /** `status` null for a timeout or a connection error; `permanent` when no retry could help (older events lack the last three). */
    ModelFailed: { error: string; status?: number | null; permanent?: boolean; attempts?: number };
    ModelRetried: { attempt: number; status: number | null; error: string; delayMs: number };
    ToolRetried: ToolRetriedData;
    StopRequested: { reason: string };
    /** A human asked the team's worker to carry a halted or stopped run on (domain/runs/request-resume.ts). */
    ResumeRequested: { reason: string };
    RunStopped: Ended<"stopped">;
  }
}
