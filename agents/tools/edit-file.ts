// edit_file: replaces one exact occurrence of a string in a file (or creates a file from nothing).
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { artefactPath, resolveInRoot } from "./paths";
import { defineTool, ToolFailure } from "./tool";

/** One call writes at most this much, and leaves no file larger than MAX_FILE_BYTES: a worktree grows only as fast as a model can write. */
const MAX_NEW_CHARS = 1024 * 1024;
const MAX_FILE_BYTES = 8 * 1024 * 1024;

function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

export const editFileTool = defineTool({
  name: "edit_file",
  description:
    "Replace exactly one occurrence of old_string with new_string in a file of the working directory. " +
    "old_string must match the file byte for byte (whitespace included) and occur once. " +
    "With an empty old_string, creates a file that does not exist yet.",
  parameters: z.object({
    path: z.string().min(1).describe("path relative to the working directory"),
    old_string: z.string().describe("the exact text to replace; empty to create a new file"),
    new_string: z.string().max(MAX_NEW_CHARS).describe("the replacement text"),
  }),
  // A second run would not find old_string again: never re-run blindly.
  idempotent: false,
  writes: (args) => artefactPath(args.path),
  async execute(args, ctx) {
    const file = await resolveInRoot(ctx.root, args.path);
    if (args.old_string === "") {
      if (existsSync(file)) throw new ToolFailure(`'${args.path}' already exists`, "read it and replace an exact string in it instead");
      await mkdir(path.dirname(file), { recursive: true });
      // "wx": created here or not at all (never through a link someone left at this name).
      await writeFile(file, args.new_string, { flag: "wx" });
      return { path: args.path, created: true };
    }
    if (args.old_string === args.new_string) throw new ToolFailure("old_string and new_string are the same", "change something, or move on");
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        throw new ToolFailure(`there is no file at '${args.path}'`, "check the path, or create the file with an empty old_string", { cause: error });
      }
      throw error;
    }
    const count = occurrences(text, args.old_string);
    if (count === 0) throw new ToolFailure(`old_string was not found in '${args.path}'`, "read the file and copy the exact text, whitespace included");
    if (count > 1) throw new ToolFailure(`old_string occurs ${count} times in '${args.path}'`, "include more surrounding lines so that it occurs once");
    const at = text.indexOf(args.old_string);
    const edited = text.slice(0, at) + args.new_string + text.slice(at + args.old_string.length);
    if (Buffer.byteLength(edited) > MAX_FILE_BYTES)
      throw new ToolFailure(`the edit would make '${args.path}' larger than ${MAX_FILE_BYTES / 1024 ** 2} MiB`, "split the content into smaller files");
    await writeFile(file, edited);
    return { path: args.path, replaced: 1 };
  },
});
