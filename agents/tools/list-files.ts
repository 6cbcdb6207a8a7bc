// list_files: the repository's tracked files under the working directory, optionally matching a glob, capped
// so one listing cannot flood the context. Read-only: it asks git, which knows what the repository holds.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import picomatch from "picomatch";
import { z } from "zod";
import { defineTool, ToolFailure } from "./tool";

const run = promisify(execFile);

/** At most this many paths per call; the total says how many matched. */
export const MAX_LISTED = 500;

export const listFilesTool = defineTool({
  name: "list_files",
  description: `List the repository's files (paths relative to the working directory), optionally only those matching a glob such as "src/**/*.py". At most ${MAX_LISTED} paths per call; narrow the glob for more.`,
  parameters: z.object({
    glob: z.string().min(1).max(500).optional().describe('a glob over the paths, e.g. "**/*.test.js"; every file when absent'),
  }),
  idempotent: true,
  async execute(args, ctx) {
    let stdout: string;
    try {
      ({ stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ctx.root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }));
    } catch (error) {
      throw new ToolFailure("the working directory is not a git repository, so its files cannot be listed", "read the files you know by name with read_file", { cause: error });
    }
    const all = stdout.split("\0").filter(Boolean).sort();
    const matcher = args.glob ? picomatch(args.glob, { dot: true }) : null;
    const matches = matcher ? all.filter((file) => matcher(file)) : all;
    return {
      files: matches.slice(0, MAX_LISTED),
      total: matches.length,
      ...(matches.length > MAX_LISTED ? { truncated: true, hint: "narrow the glob to see the rest" } : {}),
    };
  },
});
