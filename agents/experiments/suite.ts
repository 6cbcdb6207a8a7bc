// Whether a repository's suite passes on a branch, run as the team runs it: the sandboxed run_tests tool, in
// a throwaway worktree of that branch, so the repository itself is left as it was.
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cloneAt, gitSync, linkedWorktreeAt } from "../../domain/host-git";
import { runTestsTool } from "../tools/run-tests";

export type SuiteVerdict = "green" | "red" | "no branch";

export async function suiteOnBranch(repo: string, branch: string, scratch: string, command: string[] = ["node", "--test"]): Promise<SuiteVerdict> {
  const exists = gitSync(cloneAt(repo), ["branch", "--list", branch]).trim() !== "";
  if (!exists) return "no branch";
  const at = mkdtempSync(join(scratch, "suite-"));
  try {
    gitSync(cloneAt(repo), ["worktree", "add", "-q", "--detach", at, branch]);
    const tool = runTestsTool({ command });
    const result = (await tool.execute(
      {},
      { root: at, git: linkedWorktreeAt(repo, at) ?? undefined, signal: new AbortController().signal, runId: "experiment", agentId: "experiment", turn: 0 },
    )) as { passed: boolean };
    return result.passed ? "green" : "red";
  } finally {
    rmSync(at, { recursive: true, force: true });
    gitSync(cloneAt(repo), ["worktree", "prune"]);
  }
}
