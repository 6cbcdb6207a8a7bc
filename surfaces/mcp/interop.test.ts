// What real MCP clients trip on, checked through the SDK's own Client: resource templates are listed (empty),
// a protocol error's message carries its code once, tool schemas refuse what the server refuses, nullable
// fields are anyOf with null and no schema is empty ({}), and the newest protocol revision is negotiated.
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
const mcpPost = apiHandler("POST", "/api/mcp");
import { call, makeAgent } from "../../test/helpers";
import { httpClient } from "../../test/mcp/client";
import { apiHandler } from "../../test/api";

type Schema = Record<string, unknown>;

/** Every place in a JSON Schema where a value may be anything: `{}`, or `true`. */
function emptySchemas(node: unknown, path = "#"): string[] {
  if (node === true || (node && typeof node === "object" && !Array.isArray(node) && Object.keys(node).length === 0)) return [path];
  if (!node || typeof node !== "object") return [];
  const schema = node as Schema;
  const children: [string, unknown][] = [];
  for (const key of ["items", "additionalProperties", "not"]) if (key in schema) children.push([`${path}/${key}`, schema[key]]);
  for (const key of ["properties", "$defs", "definitions"])
    for (const [name, child] of Object.entries((schema[key] ?? {}) as Schema)) children.push([`${path}/${key}/${name}`, child]);
  for (const key of ["anyOf", "oneOf", "allOf"]) for (const [i, child] of ((schema[key] ?? []) as unknown[]).entries()) children.push([`${path}/${key}/${i}`, child]);
  return children.flatMap(([p, child]) => emptySchemas(child, p));
}

/** `type: [X, "null"]` (draft-07 style nullables), which strict portability checks refuse: nullable is anyOf with {type: null}. */
function typeArrays(node: unknown, path = "#"): string[] {
  if (!node || typeof node !== "object") return [];
  if (Array.isArray(node)) return node.flatMap((n, i) => typeArrays(n, `${path}/${i}`));
  const own = Array.isArray((node as Schema).type) ? [path] : [];
  return [...own, ...Object.entries(node as Schema).flatMap(([k, v]) => typeArrays(v, `${path}/${k}`))];
}

describe("MCP interop", () => {
  it("lists resource templates (none) instead of answering -32601", async () => {
    const client = await httpClient((await makeAgent()).key);
    await expect(client.listResourceTemplates()).resolves.toMatchObject({ resourceTemplates: [] });
    await client.close();
  });

  it("says an error's code once: an unknown tool and an unknown resource", async () => {
    const client = await httpClient((await makeAgent()).key);
    const unknownTool = await client.callTool({ name: "no_such_tool", arguments: {} }).catch((e: Error) => e);
    expect(unknownTool).toBeInstanceOf(Error);
    expect((unknownTool as Error).message).toMatch(/^MCP error -32602: /);
    expect((unknownTool as Error).message).not.toMatch(/MCP error -?\d+: MCP error/);
    const unknownResource = await client.readResource({ uri: "quorum://nothing" }).catch((e: Error) => e);
    expect(unknownResource).toBeInstanceOf(Error);
    expect((unknownResource as Error).message).not.toMatch(/MCP error -?\d+: MCP error/);
    await client.close();
  });

  it('gives create_task a title schema that refuses what the server refuses ("", blanks)', async () => {
    const client = await httpClient((await makeAgent()).key);
    const { tools } = await client.listTools();
    const createTask = tools.find((t) => t.name === "create_task");
    expect(createTask).toBeDefined();
    const title = (createTask!.inputSchema.properties as Record<string, Schema>).title;
    expect(title).toMatchObject({ type: "string", minLength: 1, pattern: "\\S" });
    const refused = await client.callTool({ name: "create_task", arguments: { title: "" } });
    expect(refused.isError).toBe(true);
    await client.close();
  });

  it("declares nullable fields as anyOf with null, and no empty schema, in every tool's input and output", async () => {
    const client = await httpClient((await makeAgent()).key);
    const { tools } = await client.listTools();
    const found: string[] = [];
    for (const tool of tools) {
      for (const [side, schema] of [
        ["input", tool.inputSchema],
        ["output", tool.outputSchema],
      ] as const) {
        for (const p of emptySchemas(schema)) found.push(`${tool.name} ${side} ${p}: empty schema`);
        for (const p of typeArrays(schema)) found.push(`${tool.name} ${side} ${p}: type array`);
      }
    }
    expect(found).toEqual([]);
    const readOutput = tools.find((t) => t.name === "read_output");
    expect(JSON.stringify(readOutput?.outputSchema)).toContain('{"type":"null"}');
    await client.close();
  });

  it("negotiates the newest protocol revision the SDK supports, and still serves the older ones", async () => {
    const key = (await makeAgent()).key;
    const client = await httpClient(key);
    expect(client.getServerVersion()?.name).toBe("quorum");
    const headers = { accept: "application/json, text/event-stream" };
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } } };
      const res = await call(mcpPost, "/api/mcp", { key, body: init, headers });
      expect(res.status, version).toBe(200);
      expect(res.body.result.protocolVersion, version).toBe(version);
      const list = await call(mcpPost, "/api/mcp", { key, body: { jsonrpc: "2.0", id: 2, method: "tools/list" }, headers: { ...headers, "mcp-protocol-version": version } });
      expect(list.status, version).toBe(200);
      expect(list.body.result.tools.length, version).toBeGreaterThan(0);
    }
    const future = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2099-01-01", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    expect((await call(mcpPost, "/api/mcp", { key, body: future, headers })).body.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    await client.close();
  });
});
