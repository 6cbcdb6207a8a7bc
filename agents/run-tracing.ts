// Traces of runs, as the runtime sees them: a drive of a run is traced when the process installed a tracer
// (`quorum worker` and `quorum run` do with OTEL_EXPORTER_OTLP_ENDPOINT set: agents/run-spans.ts), and not at
// all otherwise — no span, no OpenTelemetry module loaded. Replays are never traced: they re-live a run in
// memory and ask no model. The journal keeps the trace's id in RunStarted (`traceId`), so the run's timeline
// shows it and a resumed drive, in whatever process, joins the same trace.
import type { Db } from "../db/client";
import type { ModelResponse, Observation, RunResult, ToolCall } from "../domain/runs/run-events";
import type { CallOptions, ModelClient, RetryNotice } from "./model/model-client";

/** The spans of one drive's steps (what the loop calls, each wrapping the work it times). */
export interface RunTrace {
  /** One model call: `call` makes it; `onRetry` is told each transient failure retried (the journal's ModelRetried). */
  chat(call: (options: CallOptions) => Promise<ModelResponse>, onRetry: (notice: RetryNotice) => Promise<void>): Promise<ModelResponse>;
  /** One tool call, run (or refused before it ran: `execute` then returns the refusal). */
  tool(call: ToolCall, attempt: number, execute: () => Promise<Observation>): Promise<Observation>;
}

/** One drive of a run: begun before it starts, ended with how it ended. */
export interface DriveTrace extends RunTrace {
  /** The trace's id (32 hex digits): journalled in RunStarted by a run that begins traced. */
  readonly traceId: string;
  end(outcome: { result: RunResult } | { error: unknown }): void;
}

export interface TracedRun {
  runId: string;
  agentId: string;
  /** The agent's name when the caller has it at hand (a resumed run's tracer looks it up). */
  agentName?: string;
  taskId: string | null;
  client: ModelClient;
  /** A resumed run's trace, from its RunStarted; a new run gets a new one. */
  traceId?: string;
}

export interface RunTracer {
  begin(db: Db, run: TracedRun): Promise<DriveTrace>;
}

const HOLDER = Symbol.for("quorum.runTracer");
const processWide = globalThis as { [HOLDER]?: RunTracer | null };

/** Installs the process's run tracer (null removes it); composition roots call it once tracing has started. */
export function traceRuns(tracer: RunTracer | null): void {
  processWide[HOLDER] = tracer;
}

/** The installed run tracer, or null: then runs are not traced. */
export function runTracer(): RunTracer | null {
  return processWide[HOLDER] ?? null;
}

/** Drives a run inside a drive trace, when there is one: its end says how the drive ended, a throw included. */
export async function withinDrive(trace: DriveTrace | undefined, drive: () => Promise<RunResult>): Promise<RunResult> {
  if (!trace) return drive();
  try {
    const result = await drive();
    trace.end({ result });
    return result;
  } catch (error) {
    trace.end({ error });
    throw error;
  }
}
