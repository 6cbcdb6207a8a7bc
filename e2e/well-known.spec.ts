// What sits beside the API at the site's root, under both ways Quorum serves it: `quorum start` (the lean router
// takes /api/*, Next the rest) and plain `next start` (QUORUM_LEAN_API=0). A2A's agent card is found where A2A
// clients look, naming the JSON-RPC interface at QUORUM_URL; a browser's /favicon.ico is an icon, not a 404; the
// other well-known probes still answer a JSON 404.
import { expect, test } from "./fixtures";
import { newHome, startQuorum, stopQuorum } from "./server";

async function checkRoot(baseURL: string) {
  const card = await fetch(`${baseURL}/.well-known/agent-card.json`);
  expect(card.status).toBe(200);
  expect(card.headers.get("content-type")).toContain("application/json");
  expect(card.headers.get("x-content-type-options")).toBe("nosniff");
  const body = await card.json();
  expect(body.supportedInterfaces).toEqual([expect.objectContaining({ url: `${baseURL}/api/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" })]);
  expect(body.skills.map((s: { id: string }) => s.id)).toEqual(["board", "team"]);

  const icon = await fetch(`${baseURL}/favicon.ico`);
  expect(icon.status).toBe(200);
  expect(icon.headers.get("content-type")).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  const bytes = Buffer.from(await icon.arrayBuffer());
  // An ICO: reserved 0, type 1, and its images (PNG-encoded, 16 to 48 px).
  expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4)]).toEqual([0, 1, 3]);
  expect(bytes.subarray(bytes.readUInt32LE(6 + 12), bytes.readUInt32LE(6 + 12) + 4).toString("latin1")).toBe("\x89PNG");

  const probe = await fetch(`${baseURL}/.well-known/oauth-authorization-server`);
  expect([probe.status, (await probe.json()).error]).toEqual([404, "not_found"]);
}

test("the agent card and the favicon, from `quorum start`", async ({ baseURL }) => {
  await checkRoot(baseURL);
});

test("the agent card and the favicon, from plain `next start` (QUORUM_LEAN_API=0)", async () => {
  test.setTimeout(300_000);
  const server = await startQuorum(newHome(), undefined, { QUORUM_LEAN_API: "0", QUORUM_TEAM: "0", QUORUM_FLIGHT: "off" });
  try {
    expect(server.output()).not.toMatch(/lean router/);
    await checkRoot(server.baseURL);
  } finally {
    await stopQuorum(server);
  }
});
