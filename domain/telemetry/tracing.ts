// OpenTelemetry for this process, when asked for (tracingSetting in domain/config.ts): the official Node SDK with
// an OTLP/HTTP exporter, protobuf or JSON as OTEL_EXPORTER_OTLP_PROTOCOL says. Unset, nothing here is loaded (the
// SDK costs ~200 ms of start-up) and no span is made anywhere: the run tracer is not installed
// (agents/run-tracing.ts) and the web server watches requests without spans (surfaces/web/request-watch.ts).
//
// gRPC is refused, said once at start, and nothing is exported: Quorum's dependencies carry the two HTTP
// exporters, and every receiver it is pointed at (an OpenTelemetry Collector, Jaeger, Tempo, Phoenix, Langfuse)
// takes OTLP over HTTP, on port 4318 by convention.
//
// One SDK per process (`quorum start`'s web server, `next start`, the team worker, `quorum run`), whichever copy
// of this module asks first: Next's bundle and the lean router's share it through a registered symbol.
import { type TracingSetting, tracingSetting } from "../config";
import { pinnableIds } from "./trace-ids";

export interface Tracing {
  /** Sends what is buffered now (tests, and a CLI command before it exits). */
  flush(): Promise<void>;
  /** Sends what is buffered and stops, within `ms`: a stopping process does not wait on an unreachable collector. */
  shutdown(ms?: number): Promise<void>;
}

/** Which Quorum process the spans come from, as the resource attribute `quorum.process`. */
export type TracedProcess = "web" | "worker" | "cli";

const HOLDER = Symbol.for("quorum.tracing");
const processWide = globalThis as { [HOLDER]?: Promise<Tracing | null> };

async function start(component: TracedProcess, setting: TracingSetting, log: (line: string) => void): Promise<Tracing | null> {
  if (!setting.enabled) {
    if ("refused" in setting) {
      log(
        `Traces are not exported: OTEL_EXPORTER_OTLP_PROTOCOL=${setting.refused} is not a protocol Quorum exports with. It speaks OTLP over HTTP ` +
          "(http/protobuf, the default, or http/json), which collectors, Jaeger, Tempo, Phoenix and Langfuse take on their HTTP port (4318 by convention).",
      );
    }
    return null;
  }
  const [{ NodeSDK }, { defaultResource, resourceFromAttributes }, { trace }, exporter] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/api"),
    setting.protocol === "http/json" ? import("@opentelemetry/exporter-trace-otlp-http") : import("@opentelemetry/exporter-trace-otlp-proto"),
  ]);
  const sdk = new NodeSDK({
    // Merged before the environment's own resource detection, so OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win.
    resource: defaultResource().merge(resourceFromAttributes({ "service.name": "quorum", "quorum.process": component })),
    // The exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT and _HEADERS itself.
    traceExporter: new exporter.OTLPTraceExporter(),
    idGenerator: pinnableIds,
    // Traces only: no metric reader (Prometheus scrapes /metrics) and no log exporter.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  log(`Traces: exporting spans over OTLP (${setting.protocol}) as the ${component} of service "quorum".`);
  const provider = trace.getTracerProvider() as { getDelegate?(): { forceFlush?(): Promise<void> } };
  return {
    flush: async () => void (await provider.getDelegate?.().forceFlush?.()),
    shutdown: (ms = 2_000) => Promise.race([sdk.shutdown(), new Promise<void>((done) => setTimeout(done, ms).unref())]).catch(() => {}),
  };
}

/**
 * Starts tracing for this process once, if the environment asks for it; resolves to null when it does not, or when
 * the SDK could not start (said once: traces are never worth stopping the hub for). `setting` and `log` are for tests.
 */
export function startTracing(component: TracedProcess, setting: TracingSetting = tracingSetting(), log: (line: string) => void = console.log): Promise<Tracing | null> {
  processWide[HOLDER] ??= start(component, setting, log).catch((error: unknown) => {
    log(`Traces are not exported: the OpenTelemetry SDK did not start (${error instanceof Error ? error.message : String(error)}).`);
    return null;
  });
  return processWide[HOLDER];
}
