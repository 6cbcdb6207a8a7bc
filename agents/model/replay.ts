// The replay client: feeds a run's recorded responses back in order, and fails where the run failed,
// telling the loop of the recorded retries first, so the replayed journal is the recorded one.
import { payloadOf } from "../../domain/journal/payloads";
import type { ModelResponse } from "../../domain/runs/run-events";
import type { JournalRecord } from "../../domain/journal/load";
import { estimateTokens, failureAdvice, ModelError, type ModelClient } from "./model-client";

/** Thrown when the loop asks for more than the journal recorded (the run was cut short there). */
export class RecordingExhausted extends Error {
  constructor(calls: number) {
    super(`the journal records ${calls} model calls and the replay asked for another`);
    this.name = "RecordingExhausted";
  }
}

/** One recorded call: the retries it journalled, then how it ended. */
interface RecordedCall {
  retries: JournalRecord[];
  end: JournalRecord;
}

function callsOf(events: readonly JournalRecord[]): RecordedCall[] {
  const calls: RecordedCall[] = [];
  let retries: JournalRecord[] = [];
  for (const event of events) {
    if (event.kind === "ModelRetried") retries.push(event);
    if (event.kind === "ModelResponded" || event.kind === "ModelFailed") {
      calls.push({ retries, end: event });
      retries = [];
    }
  }
  return calls;
}

export function replayClient(events: readonly JournalRecord[]): ModelClient {
  const recorded = callsOf(events);
  let position = 0;
  return {
    name: "replay",
    setup: null,
    telemetry: { provider: "quorum.replay", model: "replay" },
    adviceFor: (reason) => failureAdvice(null, reason),
    estimateTokens,
    resumeAfter(recordedCalls: number) {
      position = recordedCalls;
    },
    async complete(_messages, _tools, options = {}): Promise<ModelResponse> {
      const call = recorded[position++];
      if (!call) throw new RecordingExhausted(recorded.length);
      for (const retry of call.retries) await options.onRetry?.(payloadOf(retry, "ModelRetried"));
      if (call.end.kind === "ModelFailed") {
        const failed = payloadOf(call.end, "ModelFailed");
        // A failure recorded before attempts were journalled (or not a ModelError) replays as it was written.
        if (failed.permanent === undefined) throw new Error(failed.error);
        throw new ModelError(failed.error, failed.status ?? null, { permanent: failed.permanent, attempts: failed.attempts });
      }
      return structuredClone(payloadOf(call.end, "ModelResponded"));
    },
  };
}
