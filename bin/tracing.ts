// Traces for the CLI's processes that drive runs (`quorum worker`, `quorum run resume`): the SDK started and the
// run tracer installed when OTEL_EXPORTER_OTLP_ENDPOINT asks for them, nothing loaded otherwise.
import { traceRuns } from "../agents/run-tracing";
import { startTracing, type TracedProcess, type Tracing } from "../domain/telemetry/tracing";

export async function traceRunsOfThisProcess(component: TracedProcess): Promise<Tracing | null> {
  const tracing = await startTracing(component);
  if (tracing) traceRuns((await import("../agents/run-spans")).otelRunTracer());
  return tracing;
}
