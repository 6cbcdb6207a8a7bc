// Webhooks (issue 19): humans manage endpoints; the journal writes the outbox in the event's own
// transaction; deliverers claim with SKIP LOCKED and send Standard Webhooks signatures, which a real
// receiver verifies with the reference library; failures retry with the same id and 24 h disables.
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { events, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock, systemClock } from "../clock";
import { appendEvent } from "../journal/append";
import { claimTask } from "../tasks/claim";
import { submitTask } from "../tasks/submit";
const collection = apiRoute("/api/webhooks");
const one = apiRoute("/api/webhooks/[id]");
const test = apiRoute("/api/webhooks/[id]/test");
import { makeReadyTask, makeTeam } from "../../test/fixtures/board";
import { startReceiver, LOCAL_RECEIVER } from "../../test/fixtures/webhook-receiver";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { deliverWebhooks, GIVE_UP_AFTER_MS, retryDelayMs } from "./deliver";
import { addWebhook } from "./manage";
import { signWebhook } from "./signature";
import { apiRoute } from "../../test/api";

const HOUR = 60 * 60_000;

afterEach(async () => {
  // Each test's endpoints go, so a later test's events are not queued for an earlier test's receiver.
  await getDb().update(webhookDeliveries).set({ status: "failed", lastError: "test over" }).where(eq(webhookDeliveries.status, "pending"));
  await getDb().update(webhookEndpoints).set({ deletedAt: new Date() }).where(sql`${webhookEndpoints.deletedAt} is null`);
});

async function escalate(at: Date, number = 7) {
  return appendEvent(getDb(), {
    kind: "DecisionEscalated",
    t: at,
    data: {
      decisionId: "00000000-0000-4000-8000-000000000007",
      number,
      reason: "timebox",
      tally: [],
      envelope: "Q: ship?\nDefault: no\nConsequence: we wait\nDeadline: soon",
      escalationDeadline: at.toISOString(),
      room: "general",
    },
  });
}

async function deliveriesOf(endpointId: string) {
  return getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)).orderBy(webhookDeliveries.createdAt);
}

async function kindsSince(id: number) {
  const rows = await getDb().select({ kind: events.kind, data: events.data }).from(events).where(sql`${events.id} > ${id}`).orderBy(events.id);
  return rows;
}

describe("webhook endpoints over REST", () => {
  it("lets a human add one (secret shown once, whsec_ + base64), list it with its deliveries, test it and remove it; agents may not", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    const added = await call(collection.POST, "/api/webhooks", {
      cookie: human.cookie,
      body: { url: "https://example.test/hooks?token=abc", events: ["escalation.opened", "review.requested"], description: "pager" },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      url: "https://example.test/hooks?token=abc",
      events: ["escalation.opened", "review.requested"],
      description: "pager",
      status: "active",
      deliveries: [],
    });
    expect(added.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(added.body.secret.slice(6), "base64")).toHaveLength(32);

    const listed = await call(collection.GET, "/api/webhooks", { cookie: human.cookie });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(added.body.secret);

    const queued = await call(test.POST, `/api/webhooks/${added.body.id}/test`, { cookie: human.cookie, body: {}, params: { id: added.body.id } });
    expect(queued.status).toBe(202);
    expect(queued.body.deliveryId).toMatch(/^msg_/);
    expect((await call(collection.GET, "/api/webhooks", { cookie: human.cookie })).body.items[0].deliveries).toMatchObject([
      { id: queued.body.deliveryId, type: "webhook.test", status: "pending" },
    ]);

    expect((await call(collection.GET, "/api/webhooks", { key: agent.key })).status).toBe(403);
    expect((await call(collection.POST, "/api/webhooks", { key: agent.key, body: { url: "https://x.test", events: ["agent.stalled"] } })).status).toBe(403);
    expect((await call(one.DELETE, `/api/webhooks/${added.body.id}`, { key: agent.key, method: "DELETE", params: { id: added.body.id } })).status).toBe(403);

    expect((await call(one.DELETE, `/api/webhooks/${added.body.id}`, { cookie: human.cookie, method: "DELETE", params: { id: added.body.id } })).status).toBe(204);
    expect((await call(one.DELETE, `/api/webhooks/${added.body.id}`, { cookie: human.cookie, method: "DELETE", params: { id: added.body.id } })).status).toBe(404);
    expect((await call(collection.GET, "/api/webhooks", { cookie: human.cookie })).body.items).toEqual([]);
    // The journal names the endpoint by host only, and never holds the secret.
    const journal = JSON.stringify(await getDb().select().from(events).where(sql`${events.kind} like 'Webhook%'`));
    expect(journal).toContain("example.test");
    expect(journal).not.toContain("token=abc");
    expect(journal).not.toContain(added.body.secret.slice(6));
  });

  it("refuses what is not an http(s) URL, unknown or repeated event types and unknown fields with 400", async () => {
    const human = await makeHuman();
    const post = (body: unknown) => call(collection.POST, "/api/webhooks", { cookie: human.cookie, body });
    for (const url of ["ftp://example.test/x", "javascript:alert(1)", "not a url", "file:///etc/passwd", ""]) {
      expect((await post({ url, events: ["agent.stalled"] })).status, url).toBe(400);
    }
    expect((await post({ url: "http://x.test", events: [] })).status).toBe(400);
    expect((await post({ url: "http://x.test", events: ["task.created"] })).status).toBe(400);
    expect((await post({ url: "http://x.test", events: ["agent.stalled", "agent.stalled"] })).status).toBe(400);
    expect((await post({ url: "http://x.test", events: ["agent.stalled"], secret: "mine" })).status).toBe(400);
    expect((await call(one.DELETE, "/api/webhooks/not-an-id", { cookie: human.cookie, method: "DELETE", params: { id: "not-an-id" } })).status).toBe(404);
  });
});

describe("the outbox", () => {
  it("is written with the event, in its transaction: one row per live subscribed endpoint, none if the event rolls back", async () => {
    const human = await makeHuman();
    const clock = manualClock(new Date());
    const a = await addWebhook(getDb(), human, { url: "http://127.0.0.1:9/a", events: ["escalation.opened"] }, clock);
    const b = await addWebhook(getDb(), human, { url: "http://127.0.0.1:9/b", events: ["escalation.opened", "lease.expired"] }, clock);
    const other = await addWebhook(getDb(), human, { url: "http://127.0.0.1:9/c", events: ["lease.expired"] }, clock);
    const event = await escalate(clock.now());
    const [da] = await deliveriesOf(a.id);
    const [db] = await deliveriesOf(b.id);
    expect(await deliveriesOf(other.id)).toEqual([]);
    expect(da).toMatchObject({ type: "escalation.opened", eventId: event.id, status: "pending", attempts: 0 });
    expect(da.id).not.toBe(db.id);
    expect(JSON.parse(da.body)).toEqual({
      type: "escalation.opened",
      timestamp: clock.now().toISOString(),
      data: expect.objectContaining({ eventId: event.id, kind: "DecisionEscalated", number: 7, reason: "timebox", room: "general" }),
    });

    await expect(
      getDb().transaction(async (tx) => {
        await appendEvent(tx, { kind: "LeaseExpired", t: clock.now(), data: { number: 1, ownerId: null, fence: 1, outputCount: 0 } });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect((await deliveriesOf(other.id)).length).toBe(0);
  });

  it("asks for review only when the approver is a human, and maps each journal kind to its type", async () => {
    const clock = manualClock(new Date());
    const { lead, workers } = await makeTeam(2);
    const endpoint = await addWebhook(getDb(), lead, { url: "http://127.0.0.1:9/r", events: ["review.requested", "decision.resolved", "escalation.resolved"] }, clock);
    const byHuman = await makeReadyTask(lead, { title: "human reviews" }, clock);
    const byAgent = await makeReadyTask(lead, { title: "agent reviews", approverId: workers[1].id }, clock);
    for (const task of [byHuman, byAgent]) {
      await claimTask(getDb(), workers[0], task.id, clock);
      await submitTask(getDb(), workers[0], task.id, { fence: 1, summary: "done", evidence: "tests pass" }, clock);
    }
    const review = await deliveriesOf(endpoint.id);
    expect(review.map((d) => d.type)).toEqual(["review.requested"]);
    expect(JSON.parse(review[0].body).data).toMatchObject({ taskId: byHuman.id, title: "human reviews", approverId: lead.id, approverName: lead.name, summary: "done" });

    await appendEvent(getDb(), {
      kind: "DefaultAdopted",
      t: clock.now(),
      data: { decisionId: "d", number: 3, outcome: "no", escalationDeadline: clock.now().toISOString(), room: "general" },
    });
    expect((await deliveriesOf(endpoint.id)).map((d) => d.type).sort()).toEqual(["decision.resolved", "escalation.resolved", "review.requested"]);
  });
});

describe("delivery", () => {
  it("signs per Standard Webhooks (the reference library verifies it), and retries a failure within 10 s with the same id", async () => {
    const human = await makeHuman();
    let secret = "";
    const receiver = await startReceiver(
      () => secret,
      (n) => (n === 0 ? 500 : 200),
    );
    try {
      const clock = manualClock(new Date());
      const endpoint = await addWebhook(getDb(), human, { url: receiver.url, events: ["escalation.opened"] }, clock);
      secret = endpoint.secret;
      const before = (await escalate(clock.now())).id;

      expect(await deliverWebhooks(getDb(), clock, LOCAL_RECEIVER)).toMatchObject({ claimed: 1, delivered: 0, failed: 1 });
      const [failed] = await deliveriesOf(endpoint.id);
      expect(failed).toMatchObject({ status: "pending", attempts: 1, lastStatus: 500, lastError: "HTTP 500" });
      expect(failed.nextAttemptAt.getTime() - clock.now().getTime()).toBeLessThanOrEqual(10_000);
      // Not due yet: nothing is sent.
      expect((await deliverWebhooks(getDb(), clock, LOCAL_RECEIVER)).claimed).toBe(0);

      clock.advance(10_000);
      expect(await deliverWebhooks(getDb(), clock, LOCAL_RECEIVER)).toMatchObject({ claimed: 1, delivered: 1 });
      expect(receiver.received).toHaveLength(2);
      const [first, second] = receiver.received;
      expect(first.id).toBe(failed.id);
      expect(second.id).toBe(failed.id);
      expect(second.body).toBe(first.body);
      for (const r of receiver.received) {
        expect(r.error).toBeNull();
        expect(r.verified).toMatchObject({ type: "escalation.opened", data: { number: 7 } });
      }
      // Each attempt is signed at its own time; a tampered body fails the reference check.
      expect(Number(second.timestamp) - Number(first.timestamp)).toBe(10);
      expect(second.signature).toBe(signWebhook(secret, second.id, Number(second.timestamp), second.body));
      expect(() =>
        new Webhook(secret).verify(`${second.body} `, { "webhook-id": second.id, "webhook-timestamp": second.timestamp, "webhook-signature": second.signature }),
      ).toThrow();

      expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: "delivered", attempts: 2, lastStatus: 200 });
      const journal = await kindsSince(before);
      expect(journal.map((e) => e.kind)).toEqual(["WebhookFailed", "WebhookDelivered"]);
      expect(journal[0].data).toMatchObject({ deliveryId: failed.id, attempt: 1, status: 500, error: "HTTP 500" });
      expect(JSON.stringify(journal)).not.toContain(secret.slice(6));
    } finally {
      await receiver.close();
    }
  });

  it("sends each attempt once when several deliverers race (SKIP LOCKED)", async () => {
    const human = await makeHuman();
    let secret = "";
    const receiver = await startReceiver(() => secret);
    try {
      const endpoint = await addWebhook(getDb(), human, { url: receiver.url, events: ["escalation.opened"] }, systemClock);
      secret = endpoint.secret;
      for (let i = 0; i < 12; i++) await escalate(new Date(), i);
      const passes = await Promise.all([1, 2, 3, 4].map(() => deliverWebhooks(getDb(), systemClock, LOCAL_RECEIVER)));
      expect(passes.reduce((n, p) => n + p.claimed, 0)).toBe(12);
      expect(receiver.received).toHaveLength(12);
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(12);
      expect(receiver.received.every((r) => r.error === null)).toBe(true);
      expect((await deliveriesOf(endpoint.id)).every((d) => d.status === "delivered" && d.attempts === 1)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it("backs off exponentially with jitter after the first quick retry, capped, and spreads equal failures apart", () => {
    expect(retryDelayMs(1)).toBe(5_000);
    expect(retryDelayMs(2, () => 0.5)).toBe(30_000);
    expect(retryDelayMs(3, () => 0.5)).toBe(60_000);
    expect(retryDelayMs(6, () => 0.5)).toBe(480_000);
    expect(retryDelayMs(40, () => 0.5)).toBe(6 * HOUR);
    expect(retryDelayMs(4, () => 0)).toBe(90_000);
    expect(retryDelayMs(4, () => 0.999)).toBeLessThan(150_000);
  });

  it("disables an endpoint after 24 h of failures, gives up its deliveries, queues nothing more, and a successful test brings it back", async () => {
    const human = await makeHuman();
    let status = 503;
    const receiver = await startReceiver(
      () => "",
      () => status,
    );
    try {
      const clock = manualClock(new Date());
      const endpoint = await addWebhook(getDb(), human, { url: receiver.url, events: ["escalation.opened"] }, clock);
      await escalate(clock.now());
      let passes = 0;
      let disabled: string[] = [];
      while (disabled.length === 0 && passes < 60) {
        const [next] = await getDb().select({ at: sql<string>`min(next_attempt_at)` }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id));
        if (next.at) clock.set(new Date(Math.max(clock.now().getTime(), new Date(next.at).getTime())));
        else clock.advance(HOUR);
        if (passes === 3) await escalate(clock.now(), 8); // a second delivery, still pending when the endpoint goes
        disabled = (await deliverWebhooks(getDb(), clock, { ...LOCAL_RECEIVER, random: () => 0.5 })).disabled;
        passes += 1;
      }
      expect(disabled).toEqual([endpoint.id]);
      const [row] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
      expect(row.disabledAt!.getTime() - row.failingSince!.getTime()).toBeGreaterThanOrEqual(GIVE_UP_AFTER_MS);
      // About fifteen attempts in a day (5 s, then 30 s doubling to 6 h), not thousands.
      const given = await deliveriesOf(endpoint.id);
      expect(given.map((d) => d.status)).toEqual(["failed", "failed"]);
      expect(given[0].attempts).toBeGreaterThanOrEqual(12);
      expect(given[0].attempts).toBeLessThanOrEqual(16);
      const listed = await call(collection.GET, "/api/webhooks", { cookie: human.cookie });
      expect(listed.body.items[0]).toMatchObject({ status: "disabled", disabledAt: row.disabledAt!.toISOString() });
      const [disabledEvent] = await getDb().select().from(events).where(eq(events.kind, "WebhookDisabled"));
      expect(disabledEvent.data).toMatchObject({ endpointId: endpoint.id, abandoned: 1 });

      await escalate(clock.now(), 9);
      expect(await deliveriesOf(endpoint.id)).toHaveLength(2);

      status = 200;
      const { deliveryId } = (await call(test.POST, `/api/webhooks/${endpoint.id}/test`, { cookie: human.cookie, body: {}, params: { id: endpoint.id } })).body;
      expect(await deliverWebhooks(getDb(), systemClock, LOCAL_RECEIVER)).toMatchObject({ delivered: 1 });
      expect(receiver.received.at(-1)!.id).toBe(deliveryId);
      expect((await call(collection.GET, "/api/webhooks", { cookie: human.cookie })).body.items[0]).toMatchObject({ status: "active", disabledAt: null, failingSince: null });
    } finally {
      await receiver.close();
    }
  });

  it("fails an attempt the receiver does not answer within 10 s", async () => {
    const human = await makeHuman();
    const receiver = await startReceiver(
      () => "",
      () => "hang",
    );
    try {
      const clock = manualClock(new Date());
      const endpoint = await addWebhook(getDb(), human, { url: receiver.url, events: ["escalation.opened"] }, clock);
      await escalate(clock.now());
      const started = Date.now();
      expect(await deliverWebhooks(getDb(), clock, LOCAL_RECEIVER)).toMatchObject({ failed: 1 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_900);
      expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: "pending", lastStatus: null, lastError: "no answer in 10 s" });
    } finally {
      await receiver.close();
    }
  }, 20_000);
});

describe("webhooks stay outside", () => {
  it("refuses loopback and unspecified addresses in every spelling, and names that resolve to them, recording a category", async () => {
    const human = await makeHuman();
    const receiver = await startReceiver(() => "");
    try {
      const { port } = new URL(receiver.url);
      const urls = ["127.0.0.1", "localhost", "0.0.0.0", "2130706433", "127.1", "0x7f.1", "[::1]", "[::ffff:127.0.0.1]"].map((host) => `http://${host}:${port}/hook`);
      const clock = manualClock(new Date());
      const endpoints = [];
      for (const url of urls) endpoints.push(await addWebhook(getDb(), human, { url, events: ["escalation.opened"] }, clock));
      const before = (await escalate(clock.now())).id;
      expect(await deliverWebhooks(getDb(), clock)).toMatchObject({ claimed: urls.length, delivered: 0, failed: urls.length });
      expect(receiver.received).toHaveLength(0);
      for (const endpoint of endpoints) {
        expect((await deliveriesOf(endpoint.id))[0].lastError, endpoint.url).toMatch(/^refused: the address is inside this network/);
      }
      const failures = (await kindsSince(before)).filter((e) => e.kind === "WebhookFailed");
      expect(new Set(failures.map((e) => (e.data as { error: string }).error)).size).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  it("words a failure by its category, not the socket's words, where private addresses are allowed", async () => {
    const human = await makeHuman();
    const clock = manualClock(new Date());
    // Port 9 (discard) has no listener here.
    const endpoint = await addWebhook(getDb(), human, { url: "http://127.0.0.1:9/hook", events: ["escalation.opened"] }, clock);
    await escalate(clock.now());
    expect(await deliverWebhooks(getDb(), clock, LOCAL_RECEIVER)).toMatchObject({ failed: 1 });
    expect((await deliveriesOf(endpoint.id))[0].lastError).toBe("connection refused");
  });
});
