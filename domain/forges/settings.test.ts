// A forge's settings over REST: humans set its intake label and polling, and generate, regenerate or remove its webhook
// secret. The secret is answered once — never listed, never journalled, scrubbed like the token — and each change is
// journalled as ForgeSettingsChanged with only what changed.
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { apiRoute } from "../../test/api";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { appUrl } from "../config";
import { hubSecrets, redactText } from "../hub-secrets";

const collection = apiRoute("/api/forges");
const one = apiRoute("/api/forges/[id]");
const secretRoute = apiRoute("/api/forges/[id]/webhook-secret");

async function connect(cookie: string): Promise<{ id: string; host: string }> {
  const host = `git-${randomBytes(3).toString("hex")}.example.test`;
  const added = await call(collection.POST, "/api/forges", { cookie, body: { host, token: `ghp_${randomBytes(12).toString("hex")}` } });
  expect(added.status).toBe(201);
  return added.body;
}

async function settingsEvents(host: string) {
  return getDb().execute<{ data: Record<string, unknown> }>(sql`select data from events where kind = 'ForgeSettingsChanged' and data->>'host' = ${host} order by id`);
}

describe("a forge's settings", () => {
  it("starts with no intake, polling on and no webhook secret, and tells where GitHub should send its webhooks", async () => {
    const human = await makeHuman();
    const forge = await connect(human.cookie);
    const listed = await call(collection.GET, "/api/forges", { cookie: human.cookie });
    expect(listed.body.items.find((f: { id: string }) => f.id === forge.id)).toMatchObject({
      intakeLabel: null,
      pollPullRequests: true,
      webhookSecretSet: false,
      webhookUrl: `${appUrl()}/api/forges/${forge.host}/webhook`,
    });
  });

  it("lets a human set the intake label and polling, journalling only what changed, and refuses agents and bad labels", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    const forge = await connect(human.cookie);
    const patch = (body: unknown, who: { cookie?: string; key?: string } = { cookie: human.cookie }) =>
      call(one.PATCH, "/x", { ...who, method: "PATCH", params: { id: forge.id }, body });

    const labelled = await patch({ intakeLabel: "  quorum  " });
    expect(labelled.status).toBe(200);
    expect(labelled.body).toMatchObject({ intakeLabel: "quorum", pollPullRequests: true });
    expect((await patch({ pollPullRequests: false, intakeLabel: "quorum" })).body).toMatchObject({ intakeLabel: "quorum", pollPullRequests: false });
    // The same values again change nothing, and journal nothing.
    expect((await patch({ pollPullRequests: false })).status).toBe(200);
    // "" and null both mean no intake.
    expect((await patch({ intakeLabel: "" })).body.intakeLabel).toBeNull();
    expect((await patch({ intakeLabel: "team work" })).body.intakeLabel).toBe("team work");
    expect((await patch({ intakeLabel: null })).body.intakeLabel).toBeNull();
    expect((await settingsEvents(forge.host)).map((e) => e.data)).toEqual([
      { host: forge.host, kind: "github", apiUrl: `https://${forge.host}/api/v3`, intakeLabel: "quorum" },
      expect.objectContaining({ pollPullRequests: false }),
      expect.objectContaining({ intakeLabel: null }),
      expect.objectContaining({ intakeLabel: "team work" }),
      expect.objectContaining({ intakeLabel: null }),
    ]);

    for (const body of [{}, { intakeLabel: "a,b" }, { intakeLabel: "x".repeat(51) }, { intakeLabel: "tab\there" }, { pollPullRequests: "no" }, { token: "ghp_sneaky_123456" }]) {
      const refused = await patch(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error).toBe("invalid");
    }
    expect((await patch({ intakeLabel: "quorum" }, { key: agent.key })).status).toBe(403);
    expect(
      (await call(one.PATCH, "/x", { cookie: human.cookie, method: "PATCH", params: { id: "00000000-0000-4000-8000-000000000000" }, body: { intakeLabel: "q" } })).status,
    ).toBe(404);
  });

  it("shows a generated webhook secret once: never listed, never journalled, scrubbed; regenerated or removed by humans only", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    const forge = await connect(human.cookie);
    const generate = (who: { cookie?: string; key?: string } = { cookie: human.cookie }) => call(secretRoute.POST, "/x", { ...who, params: { id: forge.id }, body: {} });
    const remove = (who: { cookie?: string; key?: string } = { cookie: human.cookie }) => call(secretRoute.DELETE, "/x", { ...who, method: "DELETE", params: { id: forge.id } });

    expect((await generate({ key: agent.key })).status).toBe(403);
    const first = await generate();
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(first.body).toMatchObject({ webhookUrl: `${appUrl()}/api/forges/${forge.host}/webhook`, forge: { id: forge.id, webhookSecretSet: true } });
    const listed = await call(collection.GET, "/api/forges", { cookie: human.cookie });
    expect(listed.body.items.find((f: { id: string }) => f.id === forge.id).webhookSecretSet).toBe(true);
    expect(JSON.stringify(listed.body)).not.toContain(first.body.secret);
    expect(redactText(`signed with ${first.body.secret}`, await hubSecrets(getDb()))).not.toContain(first.body.secret);

    const second = await generate();
    expect(second.body.secret).not.toBe(first.body.secret);
    expect((await remove({ key: agent.key })).status).toBe(403);
    const removed = await remove();
    expect(removed.status).toBe(200);
    expect(removed.body.webhookSecretSet).toBe(false);
    expect((await remove()).status).toBe(200);

    expect((await settingsEvents(forge.host)).map((e) => e.data.webhookSecret)).toEqual(["generated", "regenerated", "removed"]);
    const journal = (await getDb().execute<{ data: string }>(sql`select data::text as data from events`)).map((row) => row.data).join("\n");
    expect(journal).not.toContain(first.body.secret);
    expect(journal).not.toContain(second.body.secret);
  });
});
