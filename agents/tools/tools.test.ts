// The file tools through the toolbox: validation before execution, the root guard, exact edits,
// the test runner's exit code, output and timeout — every failure an observation, never a throw.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { cloneAt } from "../../domain/host-git";
import { makeScratchRepo, PARSER_BROKEN } from "../../test/fixtures/runtime";
import { editFileTool } from "./edit-file";
import { listFilesTool, MAX_LISTED } from "./list-files";
import { readFileTool } from "./read-file";
import { runTestsTool } from "./run-tests";
import { defineTool } from "./tool";
import { createToolbox, type Toolbox } from "./toolbox";

const ctx = { runId: "run_t", agentId: "a", turn: 1, index: 0, attempt: 1 };

async function call(toolbox: Toolbox, name: string, args: unknown) {
  const prepared = toolbox.prepare({ id: "c1", name, arguments: args }, { turn: 1, index: 0 });
  if (!prepared.ok) return { refused: true as const, observation: prepared.observation };
  return { refused: false as const, observation: await toolbox.execute(prepared.prepared, ctx), writes: prepared.prepared.writes };
}

describe("tools", () => {
  it("validates arguments before anything runs", async () => {
    let ran = false;
    const probe = defineTool({
      name: "probe",
      description: "p",
      parameters: z.object({ n: z.number().int().min(1) }),
      idempotent: true,
      async execute() {
        ran = true;
        return "ran";
      },
    });
    const toolbox = createToolbox([probe], { root: tmpdir() });
    const bad = await call(toolbox, "probe", { n: 0 });
    expect(bad).toMatchObject({
      refused: true,
      observation: { is_error: true, reason: expect.stringContaining("invalid arguments for probe"), recovery_hint: expect.any(String) },
    });
    expect(ran).toBe(false);
    expect(await call(toolbox, "probe", { n: 2 })).toMatchObject({ observation: { is_error: false, result: "ran" } });
  });

  it("refuses any path outside the root, symlinks included, as an error observation", async () => {
    const root = makeScratchRepo();
    const outside = mkdtempSync(path.join(tmpdir(), "quorum-outside-"));
    writeFileSync(path.join(outside, "secret.txt"), "s3cret");
    symlinkSync(outside, path.join(root, "escape"));
    const toolbox = createToolbox([readFileTool, editFileTool], { root });
    for (const p of ["../x", "/etc/passwd", path.join(outside, "secret.txt"), "escape/secret.txt", "sub/../../x"]) {
      const { observation } = await call(toolbox, "read_file", { path: p });
      expect(observation).toMatchObject({ is_error: true, reason: `the path '${p}' is outside the working directory` });
    }
    const { observation } = await call(toolbox, "edit_file", { path: "escape/new.txt", old_string: "", new_string: "x" });
    expect(observation.is_error).toBe(true);
    expect(readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("s3cret");
    // A path that merely stays inside is fine.
    expect((await call(toolbox, "read_file", { path: "sub/../parser.js" })).observation).toMatchObject({ is_error: false, result: { content: PARSER_BROKEN } });
  });

  it("edits by exact, unique replacement and says how to recover when it cannot", async () => {
    const root = makeScratchRepo();
    const toolbox = createToolbox([editFileTool], { root });
    const missing = await call(toolbox, "edit_file", { path: "parser.js", old_string: "return  input", new_string: "x" });
    expect(missing.observation).toMatchObject({ is_error: true, reason: "old_string was not found in 'parser.js'", recovery_hint: expect.stringContaining("exact text") });
    const twice = await call(toolbox, "edit_file", { path: "parser.js", old_string: "input", new_string: "text" });
    expect(twice.observation).toMatchObject({ is_error: true, reason: "old_string occurs 2 times in 'parser.js'" });
    const edited = await call(toolbox, "edit_file", { path: "./parser.js", old_string: "s.trim()", new_string: "s.trim().toLowerCase()" });
    expect(edited).toMatchObject({ writes: "parser.js", observation: { is_error: false, result: { replaced: 1 } } });
    expect(readFileSync(path.join(root, "parser.js"), "utf8")).toBe(PARSER_BROKEN.replace("s.trim()", "s.trim().toLowerCase()"));
    const created = await call(toolbox, "edit_file", { path: "lib/new.js", old_string: "", new_string: "export {};\n" });
    expect(created.observation).toMatchObject({ is_error: false, result: { created: true } });
    expect(readFileSync(path.join(root, "lib/new.js"), "utf8")).toBe("export {};\n");
  });

  it("reads by lines and caps what it returns", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "quorum-read-"));
    writeFileSync(path.join(root, "lines.txt"), ["one", "two", "three", "four"].join("\n"));
    writeFileSync(path.join(root, "big.txt"), "x".repeat(50_000));
    mkdirSync(path.join(root, "dir"));
    const toolbox = createToolbox([readFileTool], { root });
    expect((await call(toolbox, "read_file", { path: "lines.txt", offset: 2, limit: 2 })).observation).toMatchObject({
      result: { content: "two\nthree", totalLines: 4, fromLine: 2 },
    });
    const big = await call(toolbox, "read_file", { path: "big.txt" });
    expect(big.observation).toMatchObject({ result: { truncated: true } });
    expect((big.observation as { result: { content: string } }).result.content).toHaveLength(20_000);
    expect((await call(toolbox, "read_file", { path: "nope.txt" })).observation).toMatchObject({ is_error: true, reason: "there is no file at 'nope.txt'" });
    expect((await call(toolbox, "read_file", { path: "dir" })).observation).toMatchObject({ is_error: true, reason: "'dir' is a directory" });
  });

  it("runs the real test command: a failing suite is a result, a runner killed or timed out is a transient error", async () => {
    const root = makeScratchRepo();
    const failing = await call(createToolbox([runTestsTool({ command: ["node", "--test"] })], { root }), "run_tests", {});
    expect(failing.observation).toMatchObject({ is_error: false, result: { exitCode: 1, passed: false } });
    expect((failing.observation as { result: { output: string } }).result.output).toMatch(/parses the empty string to nothing/);
    // node --test prints TAP to a pipe: the run names the failing test, and says it in a line for the model.
    const { tests, summary } = (failing.observation as { result: { tests: { format: string; failed: string[]; passed: string[] }; summary: string } }).result;
    expect(tests.format).toBe("tap");
    expect(tests.failed).toContain("parses the empty string to nothing");
    expect(tests.passed.length).toBeGreaterThan(0);
    expect(summary).toMatch(/^\d+ passed, 1 failed \(parses the empty string to nothing\) — read from TAP; exit code 1$/);
    // A runner that prints no format Quorum reads is judged by its exit code, and the result says so.
    const plain = await call(createToolbox([runTestsTool({ command: ["sh", "-c", "echo all good"] })], { root }), "run_tests", {});
    expect(plain.observation).toMatchObject({ result: { exitCode: 0, tests: null, summary: expect.stringMatching(/only the exit code counts/) } });
    const killed = await call(createToolbox([runTestsTool({ command: ["sh", "-c", "kill -9 $$"] })], { root }), "run_tests", {});
    // In the sandbox the runner is bubblewrap's child, whose death by a signal bubblewrap reports as 128 + 9.
    expect(killed.observation).toMatchObject({ is_error: true, transient: true, reason: "the test runner died (exit code 137, SIGKILL) before it finished" });
    const marker = path.join(root, "still-running");
    const slow = runTestsTool({ command: ["sh", "-c", `sleep 5; touch ${marker}`], timeoutMs: 300 });
    const started = Date.now();
    const timedOut = await call(createToolbox([slow], { root }), "run_tests", {});
    expect(timedOut.observation).toMatchObject({ is_error: true, transient: true, reason: "run_tests timed out after 300 ms" });
    expect(Date.now() - started).toBeLessThan(3_000);
    const missing = await call(createToolbox([runTestsTool({ command: ["no-such-runner-xyz"] })], { root }), "run_tests", {});
    expect(missing.observation).toMatchObject({ is_error: true, reason: expect.stringContaining("could not start") });
    expect(missing.observation).not.toHaveProperty("transient");
  });

  it("runs the workpiece's tests without Quorum's variables: no database URL, no keys, no hub URL", async () => {
    const root = makeScratchRepo();
    // A workpiece test written by an agent that writes down everything it can see.
    writeFileSync(path.join(root, "env.test.js"), 'import { test } from "node:test";\ntest("env", () => console.log("SEEN-ENV " + JSON.stringify(process.env)));\n');
    const planted = {
      DATABASE_URL: "postgres://quorum_app:s3cret@127.0.0.1:5/quorum",
      QUORUM_URL: "http://127.0.0.1:3000",
      QUORUM_KEY: "qk_planted",
      QUORUM_ANTHROPIC_API_KEY: "sk-planted",
      PGPASSWORD: "planted",
      OPENAI_API_KEY: "sk-planted-too",
    };
    const saved = Object.fromEntries(Object.keys(planted).map((name) => [name, process.env[name]]));
    Object.assign(process.env, planted);
    try {
      const ran = await call(createToolbox([runTestsTool({ command: ["node", "--test", "env.test.js"] })], { root }), "run_tests", {});
      expect(ran.observation).toMatchObject({ is_error: false, result: { passed: true } });
      const output = (ran.observation as { result: { output: string } }).result.output;
      const seen = JSON.parse(/SEEN-ENV (\{.*\})/.exec(output)?.[1] ?? "null") as Record<string, string>;
      for (const name of Object.keys(planted)) expect(seen, name).not.toHaveProperty(name);
      expect(Object.keys(seen).filter((name) => name.startsWith("QUORUM_"))).toEqual([]);
      expect(JSON.stringify(seen)).not.toContain("planted");
      // What a test runner needs stays: the hub's PATH, less the folders the sandbox does not show.
      const shown = (process.env.PATH ?? "").split(":").filter((dir) => seen.PATH.split(":").includes(dir));
      expect(seen.PATH).toBe([...new Set(shown)].join(":"));
      expect(seen.PATH.split(":")).toContain("/usr/bin");
      expect(seen.PATH.split(":").filter((dir) => dir.startsWith("/root"))).toEqual([]);
      // A throwaway home, inside the sandbox: the user's own is not mounted.
      expect(seen.HOME).toBe("/tmp");
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

describe("list_files", () => {
  it("lists the repository's files, filters by a glob, caps the listing and says how many matched", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "quorum-list-"));
    const { execFileSync } = await import("node:child_process");
    execFileSync("git", ["init", "-q"], { cwd: root });
    mkdirSync(path.join(root, "src"));
    writeFileSync(path.join(root, "src", "a.py"), "");
    writeFileSync(path.join(root, "src", "b.js"), "");
    writeFileSync(path.join(root, ".gitignore"), "build/\n");
    mkdirSync(path.join(root, "build"));
    writeFileSync(path.join(root, "build", "out.js"), "");
    for (let i = 0; i < MAX_LISTED + 5; i++) writeFileSync(path.join(root, `many-${String(i).padStart(4, "0")}.txt`), "");
    const toolbox = createToolbox([listFilesTool], { root, git: cloneAt(root) });
    const python = await call(toolbox, "list_files", { glob: "**/*.py" });
    expect(python.observation).toEqual({ is_error: false, result: { files: ["src/a.py"], total: 1 } });
    const all = await call(toolbox, "list_files", {});
    const result = (all.observation as { result: { files: string[]; total: number; truncated?: boolean } }).result;
    expect(result.total).toBe(MAX_LISTED + 5 + 3);
    expect(result.files).toHaveLength(MAX_LISTED);
    expect(result.truncated).toBe(true);
    expect(result.files).not.toContain("build/out.js");
    const outside = await call(createToolbox([listFilesTool], { root: tmpdir() }), "list_files", {});
    expect(outside.observation).toMatchObject({ is_error: true });
  });
});
