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
  const rest: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^QUORUM_(MODEL|OPENAI_|ANTHROPIC_)/.test(name))) as NodeJS.ProcessEnv;
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
    expect(ok.stdout.trim()).toBe("The model openai-compatible:stand-in answers and calls tools (served as stand-in), for every role.");
    expect(ok.status).toBe(0);
  });

  it("checks every distinct model and says which roles use it", async () => {
    server = await startModelServer();
    const env = {
      QUORUM_MODEL: "stand-in-big",
      QUORUM_OPENAI_BASE_URL: `${server.url}/v1`,
      QUORUM_MODEL_REVIEWER: "anthropic:stand-in-small",
      QUORUM_MODEL_TESTER: "anthropic:stand-in-small",
      QUORUM_ANTHROPIC_API_KEY: "ak-stand-in",
      QUORUM_ANTHROPIC_BASE_URL: server.url,
    };
    const ok = check(env);
    expect(ok.stdout.trim().split("\n")).toEqual([
      "The model openai-compatible:stand-in-big answers and calls tools (served as stand-in-big), for the orchestrator and coder.",
      "The model anthropic:stand-in-small answers and calls tools (served as stand-in-small), for the reviewer and tester.",
    ]);
    expect(ok.status).toBe(0);
    expect((await server.requests()).map((r) => r.wire).sort()).toEqual(["anthropic", "openai"]);

    const bad = check({ ...env, QUORUM_MODEL_CODER: "anthropic:" });
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim()).toBe("Model check: QUORUM_MODEL_CODER=anthropic: needs a model name after the colon.");
  }, 120_000); // it runs the CLI as a process against a model server: slow on a busy machine
});
