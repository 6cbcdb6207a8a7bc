// Red team (issue 41): a prompt-injected model holds the coder's file tools. It tries to write git's own files
// (so that the hub's git would run its command), to write or read through a link out of the worktree (a
// symlink, one that points at nothing yet, a hard link), and to freeze the worker with a backtracking glob.
// Each attempt is refused with a reason the model can act on; each test fails if the attempt gets through.
import { execFileSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { editFileTool } from "../../agents/tools/edit-file";
import { listFilesTool } from "../../agents/tools/list-files";
import { readFileTool } from "../../agents/tools/read-file";
import { createToolbox, type Toolbox } from "../../agents/tools/toolbox";
import { cloneAt } from "../../domain/host-git";

async function call(toolbox: Toolbox, name: string, args: unknown) {
  const prepared = toolbox.prepare({ id: "c1", name, arguments: args }, { turn: 1, index: 0 });
  if (!prepared.ok) return prepared.observation;
  return toolbox.execute(prepared.prepared, { runId: "run_t", agentId: "a", turn: 1, index: 0, attempt: 1 });
}

function repository(): string {
  const root = mkdtempSync(path.join(tmpdir(), "quorum-tools-"));
  execFileSync("git", ["init", "-q", root]);
  mkdirSync(path.join(root, "src"));
  writeFileSync(path.join(root, "src", "a.js"), "export const a = 1;\n");
  return root;
}

describe("the coder's file tools", () => {
  it("refuse git's own files at any depth and in any case, and through a link to them", async () => {
    const root = repository();
    const before = readFileSync(path.join(root, ".git", "config"), "utf8");
    mkdirSync(path.join(root, "vendor", "lib", ".git"), { recursive: true });
    symlinkSync(".git", path.join(root, "meta"));
    const tools = createToolbox([readFileTool, editFileTool], { root });
    const attempts = [
      ["edit_file", { path: ".git/config", old_string: "[core]", new_string: "[core]\n\tfsmonitor = touch /tmp/owned" }],
      ["edit_file", { path: ".git/hooks/pre-commit", old_string: "", new_string: "#!/bin/sh\nid > /tmp/owned\n" }],
      ["edit_file", { path: ".git", old_string: "", new_string: "gitdir: /tmp/evil\n" }],
      ["edit_file", { path: "./src/../.git/HEAD", old_string: "", new_string: "x" }],
      ["edit_file", { path: "vendor/lib/.git/config", old_string: "", new_string: "[core]\n\tfsmonitor = id\n" }],
      ["edit_file", { path: "vendor/other/.git", old_string: "", new_string: "gitdir: /tmp/evil\n" }],
      ["edit_file", { path: ".GIT/config", old_string: "", new_string: "x" }],
      ["edit_file", { path: "meta/config", old_string: "[core]", new_string: "[core]\n\thooksPath = /tmp" }],
      ["read_file", { path: ".git/config" }],
      ["read_file", { path: "meta/config" }],
    ] as const;
    for (const [tool, args] of attempts) {
      expect(await call(tools, tool, args), `${tool} ${args.path}`).toMatchObject({ is_error: true, reason: expect.stringMatching(/\.git|outside the working directory/) });
    }
    expect(readFileSync(path.join(root, ".git", "config"), "utf8")).toBe(before);
    expect(existsSync(path.join(root, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(existsSync(path.join(root, "vendor", "other", ".git"))).toBe(false);
    // Ordinary files, and names that merely contain ".git", are the coder's to write.
    expect(await call(tools, "edit_file", { path: ".gitignore", old_string: "", new_string: "build/\n" })).toMatchObject({ is_error: false });
    expect(await call(tools, "edit_file", { path: "docs/using.git.md", old_string: "", new_string: "x\n" })).toMatchObject({ is_error: false });
  });

  it("never write through a link out of the worktree: a symlink, a dangling one, a hard link", async () => {
    const root = repository();
    const outside = mkdtempSync(path.join(tmpdir(), "quorum-outside-"));
    writeFileSync(path.join(outside, "target.txt"), "untouched\n");
    symlinkSync(path.join(outside, "target.txt"), path.join(root, "linked.txt"));
    // A link to a file that does not exist yet: "creating" it would create the file it points at.
    symlinkSync(path.join(outside, "planted.txt"), path.join(root, "dangling.txt"));
    linkSync(path.join(outside, "target.txt"), path.join(root, "hard.txt"));
    const tools = createToolbox([readFileTool, editFileTool], { root });
    expect(await call(tools, "edit_file", { path: "linked.txt", old_string: "untouched", new_string: "owned" })).toMatchObject({ is_error: true });
    expect(await call(tools, "edit_file", { path: "dangling.txt", old_string: "", new_string: "owned\n" })).toMatchObject({ is_error: true });
    expect(await call(tools, "edit_file", { path: "hard.txt", old_string: "untouched", new_string: "owned" })).toMatchObject({
      is_error: true,
      reason: expect.stringMatching(/hard link/),
    });
    expect(await call(tools, "read_file", { path: "hard.txt" })).toMatchObject({ is_error: true });
    expect(readFileSync(path.join(outside, "target.txt"), "utf8")).toBe("untouched\n");
    expect(existsSync(path.join(outside, "planted.txt"))).toBe(false);
  });

  it("bound what one edit may write", async () => {
    const root = repository();
    const tools = createToolbox([editFileTool], { root });
    expect(await call(tools, "edit_file", { path: "big.txt", old_string: "", new_string: "x".repeat(1024 * 1024 + 1) })).toMatchObject({
      is_error: true,
      reason: expect.stringMatching(/invalid arguments/),
    });
    expect(existsSync(path.join(root, "big.txt"))).toBe(false);
  });
});

describe("list_files", () => {
  it("refuses a glob that would backtrack, with the reason, and matches long names at once with the glob it allows", async () => {
    const root = repository();
    const long = `${"a".repeat(60)}.js`;
    writeFileSync(path.join(root, "src", long), "");
    const tools = createToolbox([listFilesTool], { root, git: cloneAt(root) });
    // 8 stars in one segment: picomatch took 24.5 s on this against one 60-character name, holding the worker.
    expect(await call(tools, "list_files", { glob: `src/${"*a".repeat(8)}*b` })).toMatchObject({
      is_error: true,
      reason: expect.stringMatching(/more than 4 wildcards in one segment/),
    });
    expect(await call(tools, "list_files", { glob: "src/@(a|b).js" })).toMatchObject({ is_error: true, reason: expect.stringMatching(/extglobs/) });
    expect(await call(tools, "list_files", { glob: "src/*a*a*a*b" })).toMatchObject({ is_error: false, result: { files: [], total: 0 } });
    expect(await call(tools, "list_files", { glob: "src/*a*a*a*.js" })).toMatchObject({ is_error: false, result: { files: [`src/${long}`], total: 1 } });
    expect(await call(tools, "list_files", { glob: "src/{a,b}.js" })).toMatchObject({ is_error: false, result: { files: ["src/a.js"] } });
  });
});
