// Whether a repository's suite passes on a branch, run as the team runs it: the sandboxed run_tests tool, in
// a throwaway worktree of that branch, so the repository itself is left as it was.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { runTestsTool } from "../tools/run-tests";

export type SuiteVerdict = "green" | "red" | "no branch";

export async function suiteOnBranch(repo: string, branch: string, scratch: string, command: string[] = ["node", "--test"]): Promise<SuiteVerdict> {
  const exists = execFileSync("git", ["-C", repo, "branch", "--list", branch], { encoding: "utf8" }).trim() !== "";
  if (!exists) return "no branch";
  const at = mkdtempSync(join(scratch, "suite-"));
  try {
    execFileSync("git", ["-C", repo, "worktree", "add", "-q", "--detach", at, branch], { stdio: "ignore" });
    const tool = runTestsTool({ command });
    const result = (await tool.execute({}, { root: at, signal: new AbortController().signal, runId: "experiment", agentId: "experiment", turn: 0 })) as { passed: boolean };
    return result.passed ? "green" : "red";
  } finally {
    rmSync(at, { recursive: true, force: true });
    execFileSync("git", ["-C", repo, "worktree", "prune"], { stdio: "ignore" });
  }
}
