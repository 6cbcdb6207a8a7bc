// A flight's repository: refused with the reason when it cannot be flown, and its test command detected
// from the commit the flight starts from.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { QuorumError } from "../errors";
import { detectTestCommand, inspectRepository } from "./repository";

function repoWith(files: Record<string, string>, commit = true): string {
  const dir = mkdtempSync(join(tmpdir(), "quorum-repo-"));
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: dir });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  if (commit) {
    execFileSync("git", ["add", "-A"], { cwd: dir });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "start"], { cwd: dir });
  }
  return dir;
}

async function refusal(path: string): Promise<string> {
  try {
    await inspectRepository(path);
    return "accepted";
  } catch (error) {
    if (!(error instanceof QuorumError)) throw error;
    expect(error.kind).toBe("invalid");
    return error.message;
  }
}

async function detected(files: Record<string, string>): Promise<string | null> {
  const repo = repoWith(files);
  return detectTestCommand(repo, (await inspectRepository(repo)).head);
}

describe("a flight's repository", () => {
  it("is refused, saying why, when it is not a folder, not a git repository or has no commit", async () => {
    expect(await refusal("relative/path")).toMatch(/absolute path/);
    expect(await refusal("/no/such/folder/anywhere")).toMatch(/there is no folder/);
    expect(await refusal(mkdtempSync(join(tmpdir(), "quorum-plain-")))).toMatch(/not a git repository/);
    expect(await refusal(repoWith({ "a.txt": "x" }, false))).toMatch(/has no commit yet/);
  });

  it("starts from HEAD, named from any folder inside it", async () => {
    const repo = repoWith({ "src/a.js": "1" });
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: repo, encoding: "utf8" }).trim();
    expect(await inspectRepository(join(repo, "src"))).toEqual({ path: repo, head, branch: "main" });
  });

  it("detects the test command of each kind of project, the first that applies", async () => {
    expect(await detected({ "package.json": JSON.stringify({ scripts: { test: "node --test" } }) })).toBe("npm test");
    expect(await detected({ "package.json": JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }) })).toBeNull();
    expect(await detected({ "pyproject.toml": "[tool.pytest.ini_options]\n", "a.py": "" })).toBe("python3 -m pytest");
    expect(await detected({ "pytest.ini": "[pytest]\n" })).toBe("python3 -m pytest");
    expect(await detected({ "go.mod": "module x\n" })).toBe("go test ./...");
    expect(await detected({ "Cargo.toml": "[package]\n" })).toBe("cargo test");
    expect(await detected({ Makefile: "build:\n\tcc a.c\n\ntest: build\n\t./a.out\n" })).toBe("make test");
    expect(await detected({ Makefile: "build:\n\tcc a.c\n" })).toBeNull();
    expect(await detected({ "calc.py": "", "tests/test_calc.py": "" })).toBe("python3 -m unittest");
    expect(await detected({ "README.md": "words" })).toBeNull();
  });

  it("reads the commit, not the work tree: an uncommitted script is not the flight's", async () => {
    const repo = repoWith({ "README.md": "x" });
    writeFileSync(join(repo, "package.json"), JSON.stringify({ scripts: { test: "node --test" } }));
    expect(await detectTestCommand(repo, (await inspectRepository(repo)).head)).toBeNull();
  });
});
