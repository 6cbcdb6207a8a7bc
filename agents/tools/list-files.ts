// list_files: the repository's tracked files under the working directory, optionally matching a glob, capped
// so one listing cannot flood the context. Read-only: it asks git, by the git dir the hub gave the run (never
// the root's `.git`), which knows what the repository holds. The glob is a model's: it follows the rules of a
// reservation's and is matched by the same non-backtracking matcher, so no pattern can hold the event loop.
import { z } from "zod";
import { gitAsync } from "../../domain/host-git";
import { globPattern, pathMatcher } from "../../domain/reservations/patterns";
import { defineTool, ToolFailure } from "./tool";

/** At most this many paths per call; the total says how many matched. */
export const MAX_LISTED = 500;

export const listFilesTool = defineTool({
  name: "list_files",
  description: `List the repository's files (paths relative to the working directory), optionally only those matching a glob such as "src/**/*.py" or "src/{a,b}/*.ts". At most ${MAX_LISTED} paths per call; narrow the glob for more.`,
  parameters: z.object({
    glob: globPattern.optional().describe('a glob over the paths, e.g. "**/*.test.js"; every file when absent'),
  }),
  idempotent: true,
  async execute(args, ctx) {
    if (!ctx.git?.workTree) {
      throw new ToolFailure("the working directory is not a repository the hub checked out, so its files cannot be listed", "read the files you know by name with read_file");
    }
    let stdout: string;
    try {
      stdout = await gitAsync(ctx.git, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ctx.root, maxBuffer: 64 * 1024 * 1024 });
    } catch (error) {
      throw new ToolFailure("git could not list the working directory's files", "read the files you know by name with read_file", { cause: error });
    }
    const all = stdout.split("\0").filter(Boolean).sort();
    const matches = args.glob ? all.filter(pathMatcher([args.glob])) : all;
    return {
      files: matches.slice(0, MAX_LISTED),
      total: matches.length,
      ...(matches.length > MAX_LISTED ? { truncated: true, hint: "narrow the glob to see the rest" } : {}),
    };
  },
});
