// What turns traces on, and what it costs when they are off: in a fresh Node process (as `quorum worker` starts),
// Node's own ESM log shows no OpenTelemetry module loaded and no run tracer installed unless
// OTEL_EXPORTER_OTLP_ENDPOINT is set; gRPC is refused in a sentence, and nothing loaded either.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tracingSetting } from "../domain/config";

const root = fileURLToPath(new URL("..", import.meta.url));

const PROBE = `
const { traceRunsOfThisProcess } = await import("./bin/tracing.ts");
const { runTracer } = await import("./agents/run-tracing.ts");
const tracing = await traceRunsOfThisProcess("worker");
console.log(JSON.stringify({ tracing: tracing !== null, runTracer: runTracer() !== null }));
await tracing?.shutdown(200);
`;

/** Runs the probe in a process of its own with `otel` as its only OTEL_* variables; Node logs every ES module it loads. */
function probe(otel: Record<string, string>) {
  const env: NodeJS.ProcessEnv = { ...process.env, ...otel, NODE_DEBUG: "esm" };
  for (const name of Object.keys(env)) if (name.startsWith("OTEL_") && !(name in otel)) delete env[name];
  const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", PROBE], {
    cwd: root,
    env,
    encoding: "utf8",
    timeout: 60_000,
    // Node's ESM log runs to megabytes once the SDK loads.
    maxBuffer: 256 * 1024 * 1024,
  });
  const lines = run.stdout.trim().split("\n");
  return { code: run.status, said: lines.slice(0, -1).join("\n"), state: JSON.parse(lines.at(-1) ?? "{}"), loadedOtel: /@opentelemetry/.test(run.stderr) };
}

describe("tracing's switch", () => {
  it("loads nothing of OpenTelemetry and traces no run while OTEL_EXPORTER_OTLP_ENDPOINT is unset", () => {
    expect(probe({})).toEqual({ code: 0, said: "", state: { tracing: false, runTracer: false }, loadedOtel: false });
  });

  it("starts the SDK and the run tracer with the endpoint set (the probe can tell)", () => {
    const on = probe({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
    expect(on).toMatchObject({ code: 0, state: { tracing: true, runTracer: true }, loadedOtel: true });
    expect(on.said).toContain('Traces: exporting spans over OTLP (http/protobuf) as the worker of service "quorum".');
  });

  it("refuses gRPC in a sentence and exports nothing, loading nothing", () => {
    const grpc = probe({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" });
    expect(grpc).toMatchObject({ code: 0, state: { tracing: false, runTracer: false }, loadedOtel: false });
    expect(grpc.said).toMatch(/^Traces are not exported: OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not a protocol Quorum exports with\. It speaks OTLP over HTTP/);
  });

  it("reads the standard variables: an endpoint turns it on, the traces' own protocol wins, the SDK's off switches hold", () => {
    expect(tracingSetting.from({})).toEqual({ enabled: false });
    expect(tracingSetting.from({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toEqual({ enabled: true, protocol: "http/protobuf" });
    expect(tracingSetting.from({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toEqual({ enabled: true, protocol: "http/protobuf" });
    expect(tracingSetting.from({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toEqual({ enabled: true, protocol: "http/json" });
    expect(tracingSetting.from({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json" })).toEqual({
      enabled: true,
      protocol: "http/json",
    });
    expect(tracingSetting.from({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toEqual({ enabled: false, refused: "grpc" });
    expect(tracingSetting.from({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" })).toEqual({ enabled: false });
    expect(tracingSetting.from({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_EXPORTER: "none" })).toEqual({ enabled: false });
  });
});
