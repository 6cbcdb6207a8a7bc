// Forge hosts (issue 46): humans connect, re-key and remove them over REST; the token is the hub's alone — never
// in an answer, never in the journal — and forgeTokenFor, which fetching and pushing remotes call, finds it by host.
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { apiRoute } from "../../test/api";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { systemClock } from "../clock";
import { hubSecrets, redactText } from "../hub-secrets";
import { addForgeHost, forgeTokenFor, listForgeHosts } from "./hosts";

const collection = apiRoute("/api/forges");
const one = apiRoute("/api/forges/[id]");
const token = apiRoute("/api/forges/[id]/token");

const newToken = () => `ghp_${randomBytes(16).toString("hex")}`;

/** Every journal event's data, as text: what a token must never be part of. */
async function journalText(): Promise<string> {
  const rows = await getDb().execute<{ data: string }>(sql`select data::text as data from events`);
  return rows.map((row) => row.data).join("\n");
}

async function eventsOfKind(kind: string) {
  return getDb().execute<{ data: Record<string, unknown> }>(sql`select data from events where kind = ${kind} order by id`);
}

describe("forge hosts over REST", () => {
  it("lets a human connect one, answering its token's last 4 characters only, and agents may not see or change any", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    const secret = newToken();

    const added = await call(collection.POST, "/api/forges", { cookie: human.cookie, body: { host: "GitHub.com", token: secret } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ host: "github.com", kind: "github", apiUrl: "https://api.github.com", tokenEnding: secret.slice(-4), createdByName: human.name });
    expect(JSON.stringify(added.body)).not.toContain(secret);

    const listed = await call(collection.GET, "/api/forges", { cookie: human.cookie });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([expect.objectContaining({ id: added.body.id, host: "github.com", tokenEnding: secret.slice(-4) })]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    expect((await call(collection.GET, "/api/forges", { key: agent.key })).status).toBe(403);
    expect((await call(collection.POST, "/api/forges", { key: agent.key, body: { host: "git.agent.test", token: newToken() } })).status).toBe(403);
    expect((await call(token.PUT, "/x", { key: agent.key, method: "PUT", params: { id: added.body.id }, body: { token: newToken() } })).status).toBe(403);
    expect((await call(one.DELETE, "/x", { key: agent.key, method: "DELETE", params: { id: added.body.id } })).status).toBe(403);
    await expect(addForgeHost(getDb(), agent, { host: "git.agent.test", token: newToken() }, systemClock)).rejects.toMatchObject({ status: 403 });
    await expect(listForgeHosts(getDb(), agent)).rejects.toMatchObject({ status: 403 });
    expect(await forgeTokenFor(getDb(), "github.com")).toBe(secret);
  });

  it("refuses a host connected already with 409 host_taken, in any case or with https's own port", async () => {
    const human = await makeHuman();
    const first = await call(collection.POST, "/api/forges", { cookie: human.cookie, body: { host: "git.taken.test", token: newToken() } });
    expect(first.status).toBe(201);
    for (const host of ["git.taken.test", "GIT.Taken.test", "git.taken.test:443"]) {
      const again = await call(collection.POST, "/api/forges", { cookie: human.cookie, body: { host, token: newToken() } });
      expect(again.status, host).toBe(409);
      expect(again.body.error).toBe("host_taken");
    }
  });

  it("takes GitHub Enterprise's API path by default, or the API URL a human gives", async () => {
    const human = await makeHuman();
    const enterprise = await call(collection.POST, "/api/forges", { cookie: human.cookie, body: { host: "git.corp.test", token: newToken() } });
    expect(enterprise.body.apiUrl).toBe("https://git.corp.test/api/v3");
    const local = await call(collection.POST, "/api/forges", { cookie: human.cookie, body: { host: "127.0.0.1:9418", apiUrl: "http://127.0.0.1:9419/api/", token: newToken() } });
    expect(local.status).toBe(201);
    expect(local.body).toMatchObject({ host: "127.0.0.1:9418", apiUrl: "http://127.0.0.1:9419/api" });
    // An IPv6 authority as a URL writes it passes the table's own check too.
    const ipv6 = await call(collection.POST, "/api/forges", { cookie: human.cookie, body: { host: "[::1]:9418", apiUrl: "http://[::1]:9419/api", token: newToken() } });
    expect(ipv6.status).toBe(201);
    expect(ipv6.body.host).toBe("[::1]:9418");
  });

  it("answers bad input with 400 and zod's issues, never a 500", async () => {
    const human = await makeHuman();
    const bad: [unknown, string][] = [
      [{ host: "https://github.com/owner", token: newToken() }, "host"],
      [{ host: "git hub.com", token: newToken() }, "host"],
      [{ host: "git.example.test:99999", token: newToken() }, "host"],
      [{ host: "git.example.test", apiUrl: "not a url", token: newToken() }, "apiUrl"],
      [{ host: "git.example.test", apiUrl: "ftp://git.example.test", token: newToken() }, "apiUrl"],
      [{ host: "git.example.test", apiUrl: "https://user:pass@git.example.test/api", token: newToken() }, "apiUrl"],
      [{ host: "git.example.test", token: "short" }, "token"],
      [{ host: "git.example.test", token: "two words here" }, "token"],
      [{ host: "git.example.test", kind: "gitlab", token: newToken() }, "kind"],
      [{ host: "git.example.test", token: newToken(), extra: 1 }, ""],
    ];
    for (const [body, field] of bad) {
      const refused = await call(collection.POST, "/api/forges", { cookie: human.cookie, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(
        refused.body.issues.map((issue: { path: string[] }) => issue.path.join(".")),
        JSON.stringify(body),
      ).toContain(field);
    }
    const forge = await call(collection.POST, "/api/forges", { cookie: human.cookie, body: { host: "git.example.test", token: newToken() } });
    const empty = await call(token.PUT, "/x", { cookie: human.cookie, method: "PUT", params: { id: forge.body.id }, body: { token: "" } });
    expect(empty.status).toBe(400);
    expect((await call(token.PUT, "/x", { cookie: human.cookie, method: "PUT", params: { id: "not-an-id" }, body: { token: newToken() } })).status).toBe(404);
  });

  it("replaces a token (forgeTokenFor answers the new one, redaction scrubs it) and removes a host (then null, and 404)", async () => {
    const human = await makeHuman();
    const [oldToken, replacement] = [newToken(), newToken()];
    const added = await call(collection.POST, "/api/forges", { cookie: human.cookie, body: { host: "git.rekey.test", token: oldToken } });

    const replaced = await call(token.PUT, "/x", { cookie: human.cookie, method: "PUT", params: { id: added.body.id }, body: { token: replacement } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: added.body.id, host: "git.rekey.test", tokenEnding: replacement.slice(-4) });
    expect(JSON.stringify(replaced.body)).not.toContain(replacement);
    expect(await forgeTokenFor(getDb(), "GIT.rekey.test")).toBe(replacement);
    expect(redactText(`remote said: bad credentials ${replacement}`, await hubSecrets(getDb()))).toBe(
      "remote said: bad credentials [redacted: the forge token for git.rekey.test]",
    );

    const removed = await call(one.DELETE, "/x", { cookie: human.cookie, method: "DELETE", params: { id: added.body.id } });
    expect(removed.status).toBe(204);
    expect(await forgeTokenFor(getDb(), "git.rekey.test")).toBeNull();
    expect((await call(one.DELETE, "/x", { cookie: human.cookie, method: "DELETE", params: { id: added.body.id } })).status).toBe(404);
    expect((await call(collection.GET, "/api/forges", { cookie: human.cookie })).body.items.map((f: { host: string }) => f.host)).not.toContain("git.rekey.test");
  });

  it("journals each change by host, kind and API URL, and no event's data ever holds a token", async () => {
    const human = await makeHuman();
    const [first, second] = [newToken(), newToken()];
    const added = await call(collection.POST, "/api/forges", { cookie: human.cookie, body: { host: "git.journal.test", token: first } });
    await call(token.PUT, "/x", { cookie: human.cookie, method: "PUT", params: { id: added.body.id }, body: { token: second } });
    await call(one.DELETE, "/x", { cookie: human.cookie, method: "DELETE", params: { id: added.body.id } });

    const described = { host: "git.journal.test", kind: "github", apiUrl: "https://git.journal.test/api/v3" };
    for (const kind of ["ForgeHostAdded", "ForgeTokenReplaced", "ForgeHostRemoved"]) {
      expect((await eventsOfKind(kind)).map((row) => row.data)).toContainEqual(described);
    }
    const journal = await journalText();
    for (const secret of [first, second, first.slice(4), second.slice(4)]) expect(journal).not.toContain(secret);
  });
});
