// No process keeps a credential: a key rotated or revoked, or a session ended, through another connection pool
// (another `quorum start` on the same database) is refused by this process's very next request. And a request
// refused as cross-site marks nobody present, while an accepted one does.
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { connect, getDb } from "../../db/client";
import { principals } from "../../db/schema";
const meRoute = apiHandler("GET", "/api/me");
const postTaskRoute = apiHandler("POST", "/api/tasks");
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { systemClock } from "../clock";
import { revokeAgentKeys, rotateAgentKey } from "./keys";
import { SESSION_COOKIE } from "./session-cookie";
import { endSession } from "./sign-out";
import { apiHandler } from "../../test/api";

// A second pool on the same database: what another instance's writes look like to this one.
const other = connect(process.env.DATABASE_URL!, { max: 2, name: "another instance" });
afterAll(() => other.close());

const meByKey = (key: string) => call(meRoute, "/api/me", { key });
const meByCookie = (cookie: string) => call(meRoute, "/api/me", { cookie });

describe("credentials are read live on every request", () => {
  it("refuses a key revoked by another instance on the next request", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    expect((await meByKey(agent.key)).status).toBe(200);
    expect((await meByKey(agent.key)).status).toBe(200);
    await revokeAgentKeys(other.db, human, agent.id, systemClock);
    expect((await meByKey(agent.key)).status).toBe(401);
  });

  it("refuses the old key and takes the new one right after another instance rotates it", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    expect((await meByKey(agent.key)).status).toBe(200);
    const rotated = await rotateAgentKey(other.db, human, agent.id, systemClock);
    expect((await meByKey(agent.key)).status).toBe(401);
    const fresh = await meByKey(rotated.key);
    expect(fresh.status).toBe(200);
    expect(fresh.body.id).toBe(agent.id);
  });

  it("refuses a session signed out on another instance on the next request", async () => {
    const human = await makeHuman();
    expect((await meByCookie(human.cookie)).status).toBe(200);
    await endSession(other.db, human, human.cookie.slice(SESSION_COOKIE.length + 1), systemClock);
    expect((await meByCookie(human.cookie)).status).toBe(401);
  });
});

describe("presence from authentication", () => {
  const lastSeen = async (id: string) => (await getDb().select({ at: principals.lastSeenAt }).from(principals).where(eq(principals.id, id)))[0].at;

  it("marks the caller present on an accepted request, and nobody on a cross-site one", async () => {
    const human = await makeHuman();
    await getDb().update(principals).set({ lastSeenAt: null }).where(eq(principals.id, human.id));
    const refused = await call(postTaskRoute, "/api/tasks", { cookie: human.cookie, body: { title: "from elsewhere" }, headers: { origin: "https://evil.example" } });
    expect(refused.status).toBe(403);
    expect(await lastSeen(human.id)).toBeNull();
    expect((await meByCookie(human.cookie)).status).toBe(200);
    expect(await lastSeen(human.id)).not.toBeNull();
  });
});
