// The replay client: feeds a run's recorded responses back in order, and fails where the run failed.
import { payloadOf } from "../../server/journal/payloads";
import type { JournalRecord, ModelResponse } from "../../server/journal/views/run-events";
import { estimateTokens, ModelError, type ModelClient } from "./model-client";

/** Thrown when the loop asks for more than the journal recorded (the run was cut short there). */
export class RecordingExhausted extends Error {
  constructor(calls: number) {
    super(`the journal records ${calls} model calls and the replay asked for another`);
    this.name = "RecordingExhausted";
  }
}

export function replayClient(events: readonly JournalRecord[]): ModelClient {
  const recorded = events.filter((e) => e.kind === "ModelResponded" || e.kind === "ModelFailed");
  let position = 0;
  return {
    name: "replay",
    estimateTokens,
    resumeAfter(recordedCalls: number) {
      position = recordedCalls;
    },
    async complete(): Promise<ModelResponse> {
      const event = recorded[position++];
      if (!event) throw new RecordingExhausted(recorded.length);
      if (event.kind === "ModelFailed") throw new ModelError(payloadOf(event, "ModelFailed").error);
      return structuredClone(payloadOf(event, "ModelResponded"));
    },
  };
}
