// Stalled agents (issue 19): a lease holder silent for over half its lease is flagged in the roster,
// journalled once per stall (firing agent.stalled), announced in the room; a heartbeat clears it.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events, messages, webhookDeliveries } from "../../db/schema";
import { getDb } from "../../db/client";
const agentsRoute = apiHandler("GET", "/api/agents");
import { priceSettings } from "../config";
import { manualClock } from "../clock";
import { claimTask } from "../tasks/claim";
import { heartbeat } from "../tasks/heartbeat";
import { readTaskView } from "../tasks/view";
import { addWebhook } from "../webhooks/manage";
import { makeReadyTask, makeTeam } from "../../test/fixtures/board";
import { call } from "../../test/helpers";
import { listRoster } from "./roster";
import { sweepStalledAgents } from "./stall";
import { apiHandler } from "../../test/api";

const MINUTE = 60_000;

describe("stalled agents", () => {
  it("flags a holder silent past half its lease once per stall, tells the room and the webhooks, and a heartbeat clears it", async () => {
    const db = getDb();
    const realNow = Date.now();
    const claimedAt = new Date(realNow - 16 * MINUTE);
    const clock = manualClock(claimedAt);
    const { lead, workers } = await makeTeam(1);
    const [agent] = workers;
    const hook = await addWebhook(db, lead, { url: "http://127.0.0.1:9/stalls", events: ["agent.stalled"] }, clock);
    const task = await makeReadyTask(lead, { title: "Slow work", leaseMinutes: 30 }, clock);
    const claimed = await claimTask(db, agent, task.id, clock);
    const stalledOf = async () => (await listRoster(db, clock, priceSettings().prices)).find((r) => r.id === agent.id)!;

    clock.set(new Date(claimedAt.getTime() + 14 * MINUTE));
    expect((await sweepStalledAgents(db, clock)).stalled).toEqual([]);
    expect(await stalledOf()).toMatchObject({ stalled: false, stalledSince: null });

    clock.set(new Date(realNow));
    const sweep = await sweepStalledAgents(db, clock);
    expect(sweep.stalled).toMatchObject([{ taskId: task.id, agentId: agent.id, number: task.number }]);
    expect(sweep.unannounced).toBeUndefined();
    const stalledSince = new Date(claimedAt.getTime() + 15 * MINUTE).toISOString();
    const leaseExpiresAt = claimed.leaseExpiresAt!;
    // The API says so (the route reads the real clock, which is past the 15-minute mark too).
    // The board's card reads the same moment from the task.
    expect((await readTaskView(db, task.id)).stallsAt).toBe(stalledSince);
    const roster = await call(agentsRoute, "/api/agents", { cookie: lead.cookie });
    expect(roster.body.items.find((r: { id: string }) => r.id === agent.id)).toMatchObject({ stalled: true, stalledSince, lease: { taskId: task.id, stalledSince } });

    const [stalledEvent] = await db
      .select()
      .from(events)
      .where(and(eq(events.kind, "AgentStalled"), eq(events.taskId, task.id)));
    expect(stalledEvent.data).toMatchObject({ agentId: agent.id, agentName: agent.name, number: task.number, lastActivityAt: claimedAt.toISOString(), leaseExpiresAt });
    const notices = await db.select().from(messages).where(eq(messages.taskId, task.id));
    expect(notices).toHaveLength(1);
    expect(notices[0].body).toContain(`@${agent.name} has gone quiet on task #${task.number} “Slow work”`);
    expect(notices[0].body).toContain(`The lease expires at ${leaseExpiresAt.slice(0, 16).replace("T", " ")} UTC`);
    const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.id));
    expect(delivery).toMatchObject({ type: "agent.stalled", eventId: stalledEvent.id });
    expect(JSON.parse(delivery.body).data).toMatchObject({ agentId: agent.id, taskId: task.id, leaseExpiresAt });

    // Once per stall: the next sweeps add nothing.
    clock.advance(MINUTE);
    expect((await sweepStalledAgents(db, clock)).stalled).toEqual([]);

    const renewed = await heartbeat(db, agent, task.id, { fence: claimed.fence }, clock);
    expect(await stalledOf()).toMatchObject({ stalled: false, stalledSince: null });
    expect(renewed.stallsAt).toBe(new Date(realNow + MINUTE + 15 * MINUTE).toISOString());
    expect((await sweepStalledAgents(db, clock)).stalled).toEqual([]);

    // Silent again past half the renewed lease: a new stall, told again.
    clock.advance(16 * MINUTE);
    expect((await sweepStalledAgents(db, clock)).stalled).toHaveLength(1);
    expect(
      await db
        .select()
        .from(events)
        .where(and(eq(events.kind, "AgentStalled"), eq(events.taskId, task.id))),
    ).toHaveLength(2);
    expect(await db.select().from(messages).where(eq(messages.taskId, task.id))).toHaveLength(2);
  });
});
