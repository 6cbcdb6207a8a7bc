// `quorum model check` as a person runs it, against a separate model server process: exit 1 with the
// variable to fix while the key is refused, exit 0 once the model answers with a tool call.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startModelServer, type ModelServer } from "../test/fixtures/model-server";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const quorum = fileURLToPath(new URL("./quorum.ts", import.meta.url));

function check(env: Record<string, string>) {
  const { QUORUM_MODEL: _m, QUORUM_OPENAI_BASE_URL: _b, QUORUM_OPENAI_API_KEY: _k, ...rest } = process.env;
  return spawnSync(process.execPath, ["--import", "tsx", quorum, "model", "check"], { env: { ...rest, ...env }, encoding: "utf8", timeout: 60_000 });
}

describe("quorum model check", () => {
  it("names the refused key and fails, then passes once the server accepts it", async () => {
    server = await startModelServer({ mode: "status", status: 401 });
    const env = { QUORUM_MODEL: "stand-in", QUORUM_OPENAI_BASE_URL: `${server.url}/v1`, QUORUM_OPENAI_API_KEY: "sk-wrong" };
    const refused = check(env);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toBe("Model check: QUORUM_OPENAI_API_KEY was refused (HTTP 401)");

    await server.setFault({ mode: "ok" });
    const ok = check(env);
    expect(ok.stdout.trim()).toBe("The model openai-compatible:stand-in answers and calls tools (served as stand-in).");
    expect(ok.status).toBe(0);
  });
});
