// A forge's webhook delivery through the hub's one router: believed only when signed with its host's secret, only
// once, and only in GitHub's shape; every refusal changes nothing (no delivery kept, no event journalled).
import { Webhooks } from "@octokit/webhooks";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { forgeDeliveries } from "../../db/schema";
import { apiHandler } from "../../test/api";
import { makeHuman } from "../../test/helpers";
import { systemClock } from "../clock";
import { addForgeHost, removeForgeHost } from "../forges/hosts";
import { generateWebhookSecret, removeWebhookSecret } from "../forges/settings";

const receive = apiHandler("POST", "/api/forges/{host}/webhook");
let host: string;
let forgeId: string;
let secret: string;

beforeAll(async () => {
  host = `git-${Date.now()}.example.com`;
  const human = await makeHuman();
  const forge = await addForgeHost(getDb(), human, { host, token: "forge-token-deliveries-1" }, systemClock);
  forgeId = forge.id;
  ({ secret } = await generateWebhookSecret(getDb(), human, forgeId, systemClock));
});

interface Sent {
  event?: string;
  delivery?: string;
  signature?: string | null;
  body?: string;
  to?: string;
}

let deliveries = 0;
async function deliver({ event = "ping", delivery = `d-${Date.now()}-${++deliveries}`, signature, body = JSON.stringify({ zen: "Keep it logically awesome." }), to = host }: Sent) {
  const signed = signature === undefined ? await new Webhooks({ secret }).sign(body) : signature;
  const headers: Record<string, string> = { "content-type": "application/json", "x-github-event": event, "x-github-delivery": delivery };
  if (signed !== null) headers["x-hub-signature-256"] = signed;
  const response = await receive(new Request(`http://hub/api/forges/${encodeURIComponent(to)}/webhook`, { method: "POST", headers, body }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, delivery };
}

const kept = async (delivery: string) => (await getDb().select().from(forgeDeliveries).where(eq(forgeDeliveries.deliveryId, delivery))).length;
const journalled = async (delivery: string) =>
  (await getDb().execute<{ n: number }>(sql`select count(*)::int as n from events where kind = 'ForgeDeliveryReceived' and data->>'deliveryId' = ${delivery}`))[0].n;

describe("a forge's webhook delivery", () => {
  it("is received once when signed with its host's secret; the same delivery again is a replay", async () => {
    const first = await deliver({});
    expect(first).toMatchObject({ status: 202, body: { received: true, event: "ping", flight: null, proposed: false } });
    expect(await kept(first.delivery)).toBe(1);
    expect(await journalled(first.delivery)).toBe(1);

    const again = await deliver({ delivery: first.delivery });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "delivery_replayed" });
    expect(await journalled(first.delivery)).toBe(1);
  });

  it("is refused 401 unsigned, signed with another secret, over other bytes, or for a host without a secret, and kept nowhere", async () => {
    const body = JSON.stringify({ action: "submitted", repository: { full_name: "team/app" }, pull_request: { number: 1 } });
    const refused = [
      await deliver({ signature: null, body }),
      await deliver({ signature: await new Webhooks({ secret: "another-secret-entirely" }).sign(body), body }),
      await deliver({ signature: await new Webhooks({ secret }).sign(`${body} `), body }),
      await deliver({ signature: "sha256=not-hex", body }),
      await deliver({ to: "unknown.example.com", body }),
      await deliver({ to: "not a host", body }),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(401);
      expect(String(answer.body.message)).toMatch(/does not verify with the webhook secret/);
      expect(await kept(answer.delivery)).toBe(0);
    }
  });

  it("is refused 400 without GitHub's headers or with a body that is no JSON object, after its signature", async () => {
    const noEvent = await receive(
      new Request(`http://hub/api/forges/${host}/webhook`, {
        method: "POST",
        headers: { "x-github-delivery": "no-event-1", "x-hub-signature-256": await new Webhooks({ secret }).sign("{}") },
        body: "{}",
      }),
    );
    expect(noEvent.status).toBe(400);
    const notJson = await deliver({ body: "not json" });
    expect(notJson.status).toBe(400);
    expect(await kept(notJson.delivery)).toBe(0);
    const tooBig = await deliver({ body: JSON.stringify({ zen: "x".repeat(2_000_000) }) });
    expect(tooBig.status).toBe(413);
  });

  it("stops being believed once its secret is removed, and once its forge is", async () => {
    const human = await makeHuman();
    await removeWebhookSecret(getDb(), human, forgeId, systemClock);
    expect((await deliver({})).status).toBe(401);
    ({ secret } = await generateWebhookSecret(getDb(), human, forgeId, systemClock));
    expect((await deliver({})).status).toBe(202);
    await removeForgeHost(getDb(), human, forgeId, systemClock);
    expect((await deliver({})).status).toBe(401);
  });
});
