// The ids of this process's spans: random, as OpenTelemetry's own generator makes them, except that a root
// span may be started inside a trace that already exists (a resumed run's, whose id its RunStarted keeps), so
// its drives in several processes make one trace. Pinning lasts one synchronous `startSpan`.
import { randomBytes } from "node:crypto";

const TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;
const HOLDER = Symbol.for("quorum.pinnedTraceId");
const processWide = globalThis as { [HOLDER]?: string | null };

/** The SDK's IdGenerator (domain/telemetry/tracing.ts hands it to the NodeSDK). */
export const pinnableIds = {
  generateTraceId(): string {
    return processWide[HOLDER] ?? randomBytes(16).toString("hex");
  },
  generateSpanId(): string {
    return randomBytes(8).toString("hex");
  },
};

/** Runs `start` (which starts one root span) so that its span joins `traceId`; a missing or malformed id starts a new trace. */
export function inTrace<T>(traceId: string | undefined, start: () => T): T {
  if (!traceId || !TRACE_ID.test(traceId)) return start();
  processWide[HOLDER] = traceId;
  try {
    return start();
  } finally {
    processWide[HOLDER] = null;
  }
}
