// The agent card: public, A2A v1.0's proto JSON, its JSON-RPC interface at QUORUM_URL's /api/a2a, the bearer
// key it takes, and the board's and the team's skills saying how to choose and what each state means; the team
// skill says how the team thinks now. The A2A project's own resolver reads it and builds a client from it.
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { afterAll, describe, expect, it, vi } from "vitest";
import { GET as cardRoute } from "../../app/.well-known/agent-card.json/route";
import { getDb } from "../../db/client";
import { a2aFetch } from "../../test/a2a/client";
import { makeAgent } from "../../test/helpers";
import { systemClock } from "../../domain/clock";
import { announceTeamStarted } from "../../domain/flights/team-members";

// domain/config.ts reads QUORUM_URL once, on first use: set before anything reads it.
vi.stubEnv("QUORUM_URL", "https://quorum.example.com");
afterAll(() => void vi.unstubAllEnvs());

describe("/.well-known/agent-card.json", () => {
  it("describes Quorum to A2A clients: the interface, the key, the two skills and how to choose", async () => {
    const response = await cardRoute();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const card = await response.json();
    expect(card).toMatchObject({
      name: "Quorum",
      supportedInterfaces: [{ url: "https://quorum.example.com/api/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
      capabilities: { streaming: true, pushNotifications: true },
      securitySchemes: { quorumKey: { httpAuthSecurityScheme: { scheme: "Bearer" } } },
      securityRequirements: [{ schemes: { quorumKey: {} } }],
    });
    expect(card.skills.map((s: { id: string }) => s.id)).toEqual(["board", "team"]);
    const [board, team] = card.skills as { description: string }[];
    expect(board.description).toMatch(/The default\. Your message becomes a task on the board/);
    expect(board.description).toMatch(/in review → INPUT_REQUIRED/);
    expect(team.description).toMatch(/metadata \{"skill": "team"\}/);
    expect(team.description).toMatch(/FAILED: the team handed the goal back/);
    expect(card.description).toMatch(/Choose a skill with metadata/);
  });

  it("says how the team thinks now, and is what the A2A project's client builds a client from", async () => {
    await announceTeamStarted(getDb(), ["orchestrator", "coder", "reviewer", "tester"], "anthropic:claude-sonnet-4-5", systemClock);
    const card = await (await cardRoute()).json();
    expect(card.skills[1].description).toMatch(/The team now: orchestrator, coder, reviewer, tester, thinking with anthropic:claude-sonnet-4-5\./);
    const agent = await makeAgent();
    const fetchImpl = a2aFetch(agent.key);
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      }),
    );
    const client = await factory.createFromUrl("https://quorum.example.com");
    expect(client.protocolVersion).toBe("1.0");
    const resolved = await client.getAgentCard();
    expect(resolved.supportedInterfaces[0].url).toBe("https://quorum.example.com/api/a2a");
  });
});
