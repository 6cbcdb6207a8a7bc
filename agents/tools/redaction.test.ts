// Secrets never reach the journal: a workpiece that prints every secret the hub knows (a committed file the
// coder reads, here) is read through the real toolbox, and neither the journal nor the model sees any of them.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { PASSWORDS_FILE } from "../../db/passwords-file";
import { manualClock, systemClock } from "../../domain/clock";
import { quorumHomePath } from "../../domain/config";
import { issueSignInLink } from "../../domain/principals/sign-in";
import { addForgeHost } from "../../domain/forges/hosts";
import { addWebhook } from "../../domain/webhooks/manage";
import { createPushConfig } from "../../domain/webhooks/a2a-push";
import { createTask } from "../../domain/tasks/create";
import { CODER_SYSTEM, FIX_TASK, makeScratchRepo, scratchTools } from "../../test/fixtures/runtime";
import { makeAgent, makeHuman } from "../../test/helpers";
import { scriptedClient } from "../model/scripted";
import { startRun } from "../run";

const planted = (what: string) => `${what}-${randomBytes(12).toString("hex")}`;
// Planted before anything reads the environment (it is read once per process).
const apiKey = planted("sk-vendor");
const urlPassword = planted("db/pass word");
process.env.PLANTED_VENDOR_API_KEY = apiKey;
process.env.PLANTED_DATABASE_URL = `postgres://quorum:${encodeURIComponent(urlPassword)}@db.example:5432/quorum`;
// An OTLP backend's credentials travel as headers (Langfuse: Authorization=Basic …).
const otlpHeaders = `Authorization=Basic ${planted("otlp")}`;
process.env.OTEL_EXPORTER_OTLP_HEADERS = otlpHeaders;

describe("the hub's secrets in a tool's output", () => {
  it("are redacted before the journal, the task or the model sees them, each named by what it was", async () => {
    const db = getDb();
    const embeddedPassword = planted("embedded");
    writeFileSync(join(quorumHomePath(), PASSWORDS_FILE), JSON.stringify({ postgres: embeddedPassword, quorum_app: planted("app") }));
    const human = await makeHuman();
    const webhook = await addWebhook(db, human, { url: "https://hooks.example/quorum", events: ["review.requested"] }, systemClock);
    const agent = await makeAgent();
    // An A2A push config's token and credentials (its receiver checks them) are the hub's to keep too.
    const task = await createTask(db, agent, { title: "pushed" }, systemClock);
    const pushToken = planted("push-token");
    const pushCredential = planted("push-credential");
    await createPushConfig(
      db,
      agent,
      task.id,
      { url: "https://hooks.example/a2a", token: pushToken, authentication: { scheme: "Bearer", credentials: pushCredential } },
      systemClock,
    );
    // A forge's token (Settings → Forges), which a remote's git might echo back in an error.
    const forgeToken = planted("ghp");
    await addForgeHost(db, human, { host: "github.com", token: forgeToken }, systemClock);
    const signInToken = await issueSignInLink(db, human, systemClock);
    const secrets = {
      apiKey,
      otlpHeaders,
      urlPassword,
      encodedUrlPassword: encodeURIComponent(urlPassword),
      embeddedPassword,
      webhook: webhook.secret,
      pushToken,
      pushCredential,
      forgeToken,
      agentKey: agent.key,
      signInToken,
      session: human.cookie.split("=")[1],
    };

    const root = makeScratchRepo();
    writeFileSync(
      join(root, "leak.txt"),
      Object.entries(secrets)
        .map(([name, value]) => `${name}=${value}`)
        .join("\n"),
    );
    const client = scriptedClient([
      { toolCalls: [{ name: "read_file", arguments: { path: "leak.txt" } }] },
      { toolCalls: [{ name: "done", arguments: { summary: "read it", evidence: ["leak.txt"] } }] },
    ]);
    const { runId } = await startRun(db, { agent, client, tools: scratchTools(), root, task: FIX_TASK, system: CODER_SYSTEM, clock: manualClock() });

    const journal = (await db.execute<{ data: string }>(sql`select data::text as data from events where run_id = ${runId}`)).map((row) => row.data).join("\n");
    const seenByModel = JSON.stringify(client.calls[1].messages);
    for (const [name, value] of Object.entries(secrets)) {
      expect(journal, name).not.toContain(value);
      expect(seenByModel, name).not.toContain(value);
    }
    expect(seenByModel).toContain("apiKey=[redacted: PLANTED_VENDOR_API_KEY]");
    expect(seenByModel).toContain("urlPassword=[redacted: PLANTED_DATABASE_URL password]");
    expect(seenByModel).toContain("embeddedPassword=[redacted: the embedded database's password]");
    expect(seenByModel).toContain("webhook=[redacted: a webhook secret]");
    expect(seenByModel).toContain("pushToken=[redacted: an A2A push token]");
    expect(seenByModel).toContain("pushCredential=[redacted: an A2A push credential]");
    expect(seenByModel).toContain("forgeToken=[redacted: the forge token for github.com]");
    expect(seenByModel).toContain("agentKey=[redacted: a Quorum key or token]");
    // The rest of the output is untouched.
    expect(journal).toContain("signInToken=[redacted: a Quorum key or token]");
  });
});
