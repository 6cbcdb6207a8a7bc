// A server killed between an event's commit and its webhook's delivery loses nothing: a fresh
// deliverer sends it, with the same webhook-id, signed as the reference library expects.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { eq, isNull } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock, systemClock } from "../clock";
import { startReceiver, LOCAL_RECEIVER } from "../../test/fixtures/webhook-receiver";
import { makeHuman } from "../../test/helpers";
import { CLAIM_MS, deliverWebhooks } from "./deliver";
import { addWebhook } from "./manage";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  // Each test's endpoint goes, so the next test's event is queued for its own receiver only.
  await getDb().update(webhookEndpoints).set({ deletedAt: new Date() }).where(isNull(webhookEndpoints.deletedAt));
});

/** A child that journals the event in its own process; resolves once it has committed. */
async function commitInChild(orders: { number: number; deliver: boolean }) {
  // One node process with tsx's loader, so SIGKILL reaches the process that holds the connection.
  const proc = spawn(process.execPath, ["--import", "tsx", here("../../test/processes/webhook-child.ts")], {
    cwd: here("../.."),
    env: process.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(proc);
  let stderr = "";
  proc.stderr.on("data", (chunk) => (stderr += chunk));
  const lines = createInterface({ input: proc.stdout });
  const exited = new Promise<string | null>((resolve) => proc.once("exit", (_code, signal) => resolve(signal)));
  const said = (what: string) =>
    new Promise<void>((resolve, reject) => {
      lines.on("line", (line) => line === what && resolve());
      proc.once("exit", () => reject(new Error(`the child exited before "${what}": ${stderr}`)));
    });
  await said("ready");
  proc.stdin.write(`${JSON.stringify(orders)}\n`);
  await said("committed");
  return {
    kill: async () => {
      proc.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");
    },
  };
}

describe("a server killed between commit and delivery", () => {
  it("loses nothing when it dies before its deliverer runs: a fresh one delivers at once", async () => {
    const human = await makeHuman();
    let secret = "";
    const receiver = await startReceiver(() => secret);
    try {
      const endpoint = await addWebhook(getDb(), human, { url: receiver.url, events: ["escalation.opened"] }, systemClock);
      secret = endpoint.secret;
      const child = await commitInChild({ number: 41, deliver: false });
      await child.kill();
      expect(receiver.received).toHaveLength(0);
      expect(await deliverWebhooks(getDb(), systemClock, LOCAL_RECEIVER)).toMatchObject({ claimed: 1, delivered: 1 });
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]).toMatchObject({ error: null, verified: { type: "escalation.opened", data: { number: 41 } } });
    } finally {
      await receiver.close();
    }
  });

  it("resends an attempt cut off by SIGKILL with the same webhook-id once its claim lapses, never while it holds", async () => {
    const human = await makeHuman();
    let secret = "";
    const receiver = await startReceiver(
      () => secret,
      (n) => (n === 0 ? "hang" : 200),
    );
    try {
      const endpoint = await addWebhook(getDb(), human, { url: receiver.url, events: ["escalation.opened"] }, systemClock);
      secret = endpoint.secret;
      const child = await commitInChild({ number: 42, deliver: true });
      await receiver.until(1);
      await child.kill();
      const [cut] = await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id));
      expect(cut).toMatchObject({ status: "pending", attempts: 1 });

      // While the dead deliverer's claim holds, nobody sends it again.
      const clock = manualClock(new Date());
      expect((await deliverWebhooks(getDb(), clock, LOCAL_RECEIVER)).claimed).toBe(0);
      clock.advance(CLAIM_MS);
      expect(await deliverWebhooks(getDb(), clock, LOCAL_RECEIVER)).toMatchObject({ claimed: 1, delivered: 1 });
      expect(receiver.received.map((r) => r.id)).toEqual([cut.id, cut.id]);
      expect(receiver.received.map((r) => r.error)).toEqual([null, null]);
      expect(receiver.received[1].verified).toMatchObject({ type: "escalation.opened", data: { number: 42 } });
      expect((await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, cut.id)))[0]).toMatchObject({ status: "delivered", attempts: 2 });
    } finally {
      await receiver.close();
    }
  });
});
