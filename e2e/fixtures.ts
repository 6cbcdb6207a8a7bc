// Playwright fixtures: the shared server, signing humans in, registering agents and calling as them.
import { test as base, expect, type APIRequestContext, type Page, type TestInfo } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { systemClock } from "../domain/clock";
import { createAgent, ensureHuman } from "../domain/principals/create-principal";
import { issueSignInLink } from "../domain/principals/sign-in";
import { withHubDatabase } from "./hub";
import { newHome, quorumCli, serverEnv, startQuorum, stopQuorum } from "./server";

export { expect };

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(3).toString("hex")}`;
}

export interface Agent {
  id: string;
  name: string;
  role: string;
  key: string;
}

/** A parsed JSON response body: each endpoint has its own shape, and the specs assert the fields they read. */
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON from any endpoint, read field by field and asserted with expect
export type ResponseBody = any;

/** An HTTP client that authenticates as one agent with its bearer key. */
export interface AgentApi {
  get(path: string): Promise<{ status: number; body: ResponseBody }>;
  post(path: string, body?: unknown): Promise<{ status: number; body: ResponseBody }>;
}

export interface QuorumFixtures {
  baseURL: string;
  /** Runs the `quorum` CLI against the shared server. */
  cli(args: string[]): Promise<string>;
  /** Signs a (new or existing) human in through a printed one-time link; returns the name. */
  signIn(page: Page, name?: string): Promise<string>;
  /** Registers an agent through the CLI and returns it with its key. */
  registerAgent(name?: string, role?: string): Promise<Agent>;
  asAgent(agent: Agent): AgentApi;
  /** Saves a full-page screenshot as a test artifact. */
  snap(page: Page, name: string): Promise<void>;
}

/** The Quorum a test's fixtures talk to: the shared one, or the test's own (`privateHub`). */
export interface Hub {
  baseURL: string;
  home: string;
  port: number;
}

/** As `quorum human add NAME` and its one-time link, opened in the page. */
async function signIn(hub: Hub, page: Page, name = uniqueName("human")): Promise<string> {
  const token = await withHubDatabase(async (db) => issueSignInLink(db, await ensureHuman(db, name, systemClock), systemClock), hub.home);
  await page.goto(`${hub.baseURL}/signin?token=${token}`);
  await expect(page.getByTestId("signed-in-as")).toContainText(name);
  return name;
}

/** As `quorum agent add NAME --role ROLE`: the agent and its key. */
async function registerAgent(hub: Hub, name = uniqueName("agent"), role = "coder"): Promise<Agent> {
  const agent = await withHubDatabase((db) => createAgent(db, null, { name, role }, systemClock), hub.home);
  return { id: agent.id, name, role, key: agent.key };
}

function agentApi(request: APIRequestContext, baseURL: string, agent: Agent): AgentApi {
  const headers = { Authorization: `Bearer ${agent.key}` };
  const wrap = async (response: Awaited<ReturnType<APIRequestContext["get"]>>) => {
    const text = await response.text();
    return { status: response.status(), body: text ? JSON.parse(text) : undefined };
  };
  return {
    get: async (path) => wrap(await request.get(`${baseURL}${path}`, { headers })),
    post: async (path, body = {}) => wrap(await request.post(`${baseURL}${path}`, { headers, data: body })),
  };
}

async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

export const test = base.extend<QuorumFixtures & { privateHub: boolean; hub: Hub }>({
  // A test whose pages must hold a known, small amount of data (the page walks) asks for a Quorum of its own,
  // with no team: the shared one holds whatever every other spec has added by then. A test's option, not a
  // worker's: Playwright runs groups needing another worker last, where a long walk would run alone.
  privateHub: [false, { option: true }],
  hub: async ({ privateHub }, use) => {
    if (!privateHub) return use({ baseURL: process.env.QUORUM_E2E_BASE_URL!, home: process.env.QUORUM_E2E_HOME!, port: Number(process.env.QUORUM_E2E_PORT) });
    const server = await startQuorum(newHome(), undefined, { QUORUM_TEAM: "0", QUORUM_FLIGHT: "off" });
    try {
      await use({ baseURL: server.baseURL, home: server.home, port: server.port });
    } finally {
      await stopQuorum(server);
    }
  },
  baseURL: async ({ hub }, use) => use(hub.baseURL),
  cli: async ({ hub }, use) => use((args) => quorumCli(serverEnv(hub.home, hub.port), args)),
  signIn: async ({ hub }, use) => use((page, name) => signIn(hub, page, name)),
  registerAgent: async ({ hub }, use) => use((name, role) => registerAgent(hub, name, role)),
  asAgent: async ({ request, baseURL }, use) => use((agent) => agentApi(request, baseURL!, agent)),
  snap: async ({}, use, testInfo) => use((page, name) => screenshot(page, testInfo, name)),
});
