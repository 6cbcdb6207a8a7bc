// GET /metrics (app/metrics/route.ts, as `next start` serves it): Prometheus's own promtool accepts the
// exposition; the hub's counters come from the journal, so what an agent did shows whatever process did it and
// counts once however often it is scraped; the live tables' gauges follow the board; only humans and the scraper's
// token read it from elsewhere (agents' keys: 403).
import { vi } from "vitest";

vi.stubEnv("QUORUM_METRICS_TOKEN", "scraper-token-0123456789");

import { describe, expect, it } from "vitest";
import { GET } from "@/app/metrics/route";
import { getDb } from "../../db/client";
import { manualClock, systemClock } from "../clock";
import { makeReadyTask } from "../../test/fixtures/board";
import { promtoolCheck, sample } from "../../test/fixtures/prometheus";
import { ackAndPost, freshRoom, tryPost } from "../../test/fixtures/room";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { reportUsage } from "../bill/report-usage";
import { claimTask } from "../tasks/claim";
import { fromThisMachine } from "./access";

async function scrape(credentials: { cookie?: string; key?: string }) {
  const request = new Request("http://localhost/metrics", {
    headers: { host: "localhost", ...(credentials.cookie ? { cookie: credentials.cookie } : {}), ...(credentials.key ? { authorization: `Bearer ${credentials.key}` } : {}) },
  });
  const response = await GET(request);
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", text: await response.text() };
}

describe("GET /metrics", () => {
  it("is an exposition promtool accepts, counting the journal's posts, refusals by gate and claims, once each however often it is read", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    const room = await freshRoom(human);
    const clock = manualClock();
    const before = await scrape({ cookie: human.cookie });
    expect(before.status).toBe(200);
    expect(before.contentType).toContain("text/plain");
    expect(promtoolCheck(before.text)).toEqual({ code: 0, problems: "" });
    const refusedBefore = sample(before.text, 'quorum_post_refusals_total{gate="duplicate"}') ?? 0;
    const agentPostsBefore = sample(before.text, 'quorum_posts_total{sender="agent"}') ?? 0;
    const claimsBefore = sample(before.text, "quorum_task_claims_total") ?? 0;

    expect((await ackAndPost(agent, room, "the parser test fails on ''", clock)).ok).toBe(true);
    const twice = await tryPost(agent, room, "the parser test fails on ''", clock);
    expect(twice).toMatchObject({ ok: false, code: "duplicate" });
    const task = await makeReadyTask(human, { approverId: human.id });
    await claimTask(getDb(), agent, task.id, systemClock);
    // An outside agent's self-reported spend is counted apart from what Quorum measured.
    await reportUsage(getDb(), agent, { model: "claude-sonnet-4-5", inputTokens: 1200, outputTokens: 300, cachedTokens: 1000 }, systemClock);

    const after = await scrape({ cookie: human.cookie });
    expect(promtoolCheck(after.text)).toEqual({ code: 0, problems: "" });
    expect(sample(after.text, 'quorum_post_refusals_total{gate="duplicate"}')).toBe(refusedBefore + 1);
    expect(sample(after.text, 'quorum_posts_total{sender="agent"}')).toBe(agentPostsBefore + 1);
    expect(sample(after.text, "quorum_task_claims_total")).toBe(claimsBefore + 1);
    expect(sample(after.text, `quorum_reported_tokens_total{role="${agent.role}",model="claude-sonnet-4-5",type="output"}`)).toBe(300);
    expect(sample(after.text, `quorum_reported_tokens_total{role="${agent.role}",model="claude-sonnet-4-5",type="cached"}`)).toBe(1000);
    // The board's gauges: the claimed task is in progress under its lease.
    expect(sample(after.text, 'quorum_tasks{status="in_progress"}')).toBeGreaterThanOrEqual(1);
    expect(sample(after.text, "quorum_leases_overdue")).toBe(0);

    // Read again with nothing new: the counters stand (each event is counted once, not once per scrape).
    const again = await scrape({ cookie: human.cookie });
    expect(sample(again.text, 'quorum_post_refusals_total{gate="duplicate"}')).toBe(refusedBefore + 1);
    expect(sample(again.text, "quorum_task_claims_total")).toBe(claimsBefore + 1);
  });

  it("describes every series with HELP and TYPE, and labels by gate, role, model and route pattern only (bounded)", async () => {
    const human = await makeHuman();
    const { text } = await scrape({ cookie: human.cookie });
    for (const name of [
      "quorum_posts_total",
      "quorum_post_refusals_total",
      "quorum_task_claims_total",
      "quorum_lease_expiries_total",
      "quorum_agent_stalls_total",
      "quorum_escalations_open",
      "quorum_escalations_overdue",
      "quorum_webhook_backlog",
      "quorum_webhook_failures_total",
      "quorum_sse_clients",
      "quorum_announcer_delay_seconds",
      "quorum_db_pool_wait_seconds_total",
      "quorum_db_lock_waits",
      "quorum_model_calls_total",
      "quorum_model_tokens_total",
      "quorum_model_retries_total",
      "quorum_model_failures_total",
      "quorum_http_request_duration_seconds",
    ]) {
      expect(text, name).toMatch(new RegExp(`^# HELP ${name} .+\\n# TYPE ${name} (counter|gauge|histogram)$`, "m"));
    }
    // The pool's waits are this process's own: every transaction counted (the fixtures above ran many).
    expect(sample(text, "quorum_db_pool_transactions_total")).toBeGreaterThan(0);
  });

  it("is read by a human's session or the scraper's token; an agent's key is refused (403), no credentials or a wrong token 401", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    expect((await scrape({ cookie: human.cookie })).status).toBe(200);
    expect((await scrape({ key: "scraper-token-0123456789" })).status).toBe(200);
    const refusedAgent = await call(GET, "/metrics", { key: agent.key });
    expect([refusedAgent.status, refusedAgent.body.error]).toEqual([403, "forbidden"]);
    const anonymous = await call(GET, "/metrics");
    expect([anonymous.status, anonymous.body.error]).toEqual([401, "unauthorized"]);
    const wrong = await call(GET, "/metrics", { key: "scraper-token-0123456780" });
    expect([wrong.status, wrong.body.error]).toEqual([401, "unauthorized"]);
  });

  it("counts a request as this machine's own only from a loopback socket that no proxy relayed, sent to a name no DNS answer can stand in for", () => {
    const none = new Headers({ host: "127.0.0.1:3000" });
    expect(["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"].map((address) => fromThisMachine(address, none))).toEqual([true, true, true, true]);
    expect(["10.0.0.7", "198.18.0.2", "::ffff:10.0.0.7", "fe80::1", "", undefined].map((address) => fromThisMachine(address, none))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    for (const header of ["forwarded", "x-forwarded-for", "x-real-ip"]) {
      expect(fromThisMachine("127.0.0.1", new Headers({ host: "127.0.0.1:3000", [header]: "203.0.113.9" })), header).toBe(false);
    }
    // DNS rebinding: a page at a name of the attacker's, rebound to 127.0.0.1, sends that name as Host.
    const hosts = ["localhost:3000", "[::1]:3000", "127.0.0.1", "rebound.example:3000", "localhost.rebound.example", "127.0.0.1.nip.io:3000"];
    expect(hosts.map((host) => fromThisMachine("127.0.0.1", new Headers({ host })))).toEqual([true, true, true, false, false, false]);
    expect(fromThisMachine("127.0.0.1", new Headers())).toBe(false);
    // The hub's own public name (QUORUM_URL) is its own.
    expect(fromThisMachine("127.0.0.1", new Headers({ host: "quorum.example.org" }), "https://quorum.example.org")).toBe(true);
  });
});
