// Operating Quorum with the tools operators already run, against the real `quorum start`: a real Prometheus
// scrapes /metrics from this machine (no key) and answers PromQL with a refusal this test caused; a run traced
// over OTLP/HTTP reaches a receiver of our own, and its timeline in the Journal shows the trace's id.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { type OtlpReceiver, startOtlpReceiver } from "../test/fixtures/otlp-receiver";
import { type PrometheusServer, startPrometheus } from "../test/fixtures/prometheus-server";
import { expect, test, uniqueName } from "./fixtures";
import { root, serverEnv } from "./server";

test("a real Prometheus scrapes Quorum and answers PromQL with the duplicate refusal this test caused", async ({ baseURL, registerAgent, asAgent }) => {
  const target = new URL(baseURL).host;
  let prometheus: PrometheusServer | undefined;
  try {
    prometheus = await startPrometheus(target);
    const prom = prometheus;
    // Scraped from loopback, without a key: the target is up.
    await expect.poll(async () => (await prom.query('up{job="quorum"}'))[0]?.value, { timeout: 20_000 }).toBe(1);
    const refusals = async () => (await prom.query('sum(quorum_post_refusals_total{job="quorum",gate="duplicate"})'))[0]?.value ?? 0;
    const before = await refusals();

    const agent = await registerAgent();
    const api = asAgent(agent);
    const body = `metrics probe ${uniqueName("post")}`;
    let first = await api.post("/api/rooms/general/messages", { body });
    // Whatever the room said since this agent arrived, its hold token lets the post through once.
    if (first.status === 409 && first.body.error === "stale") first = await api.post("/api/rooms/general/messages", { body, holdToken: first.body.holdToken });
    expect(first.status).toBe(201);
    const again = await api.post("/api/rooms/general/messages", { body });
    expect([again.status, again.body.error]).toEqual([409, "duplicate"]);

    await expect.poll(refusals, { timeout: 20_000 }).toBe(before + 1);
    // The posts' latency is kept by route pattern, so PromQL can rank routes without one series per room.
    const routes = await prom.query('sum by (route) (quorum_http_request_duration_seconds_count{job="quorum",method="POST"})');
    expect(routes.map((r) => r.metric.route)).toContain("/api/rooms/[room]/messages");
    expect(routes.map((r) => r.metric.route)).not.toContain("/api/rooms/general/messages");
  } finally {
    await prometheus?.stop();
  }
});

test("a traced run's spans reach an OTLP/HTTP receiver, and its timeline shows the trace's id", async ({ page, signIn, registerAgent, snap }) => {
  const agent = await registerAgent(undefined, "coder");
  let receiver: OtlpReceiver | undefined;
  const env = serverEnv(process.env.QUORUM_E2E_HOME!, Number(process.env.QUORUM_E2E_PORT));
  try {
    receiver = await startOtlpReceiver();
    const child = spawn(join(root, "node_modules", ".bin", "tsx"), [join(root, "test/processes/slow-run.ts"), agent.id, "0"], {
      cwd: root,
      env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let runId = "";
    try {
      for await (const line of createInterface({ input: child.stdout! })) {
        if (/^run_[0-9a-f]{16}$/.test(line)) runId = line;
        else if (line.startsWith("{")) expect(JSON.parse(line)).toMatchObject({ status: "done" });
      }
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    expect(runId).not.toBe("");
    const drive = receiver.spans.find((s) => s.attributes["quorum.run.id"] === runId);
    expect(drive).toMatchObject({ name: `invoke_agent ${agent.name}`, parentSpanId: "" });
    expect(receiver.spans.filter((s) => s.traceId === drive!.traceId).map((s) => s.name)).toEqual(
      expect.arrayContaining(["chat scripted", "execute_tool wait", `invoke_agent ${agent.name}`]),
    );

    await signIn(page);
    for (const size of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      await page.goto(`/journal?run=${runId}&view=timeline`);
      await expect(page.getByTestId("run-trace")).toContainText(`Traced as ${drive!.traceId}`);
      // The trace's id wraps inside the page at 390 px rather than pushing it sideways.
      const box = await page.getByTestId("run-trace").boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(size.width);
      await snap(page, `run-trace-${size.width}`);
    }
  } finally {
    await receiver?.close();
  }
});
