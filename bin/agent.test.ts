// `quorum agent rotate` and `quorum agent revoke`: the operator's hands on an agent's keys, journalled as the CLI (no actor).
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
const meRoute = apiHandler("GET", "/api/me");
import { getDb } from "../db/client";
import { call, makeAgent, makeHuman } from "../test/helpers";
import { revokeCommand, rotateCommand } from "./agent";
import { apiHandler } from "../test/api";

function capture() {
  const lines: string[] = [];
  return { lines, print: (line: string) => void lines.push(line) };
}

const me = (key: string) => call(meRoute, "/api/me", { key });

describe("quorum agent rotate / revoke", () => {
  it("rotates by name (the new key printed once, the old one refused), then revokes every key", async () => {
    const agent = await makeAgent();
    const rotated = capture();
    expect(await rotateCommand(getDb(), agent.name, rotated.print)).toBe(0);
    const key = /(qk_\S+)/.exec(rotated.lines.join("\n"))?.[1];
    expect(rotated.lines.join("\n")).toMatch(new RegExp(`^Agent ${agent.name}: a new key issued, 1 old key revoked`));
    expect(key).toBeDefined();
    expect((await me(agent.key)).status).toBe(401);
    expect((await me(key!)).status).toBe(200);

    const revoked = capture();
    expect(await revokeCommand(getDb(), agent.name, revoked.print)).toBe(0);
    expect(revoked.lines).toEqual([`Agent ${agent.name}: 1 key revoked; it is locked out until \`quorum agent rotate ${agent.name}\` issues a new one.`]);
    expect((await me(key!)).status).toBe(401);

    const kinds = await getDb().execute<{ kind: string; actor: string | null }>(
      sql`select kind, actor from events where kind in ('AgentKeyRotated', 'AgentKeysRevoked') and data->>'principalId' = ${agent.id} order by id`,
    );
    expect(kinds).toEqual([
      { kind: "AgentKeyRotated", actor: null },
      { kind: "AgentKeysRevoked", actor: null },
    ]);
  });

  it("names no agent it does not know, and no human", async () => {
    const human = await makeHuman();
    await expect(rotateCommand(getDb(), "no-such-agent", () => {})).rejects.toMatchObject({ kind: "not_found", message: 'no agent "no-such-agent"' });
    await expect(revokeCommand(getDb(), human.name, () => {})).rejects.toMatchObject({ kind: "not_found" });
  });
});
