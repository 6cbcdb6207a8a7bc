// read_file: a text file inside the working directory, by lines, capped so one read cannot flood the context.
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { resolveInRoot } from "./paths";
import { defineTool, ToolFailure } from "./tool";

const MAX_CHARS = 20_000;

export const readFileTool = defineTool({
  name: "read_file",
  description: "Read a text file in the working directory. Lines are numbered from 1; use offset and limit for long files.",
  parameters: z.object({
    path: z.string().min(1).describe("path relative to the working directory"),
    offset: z.number().int().min(1).optional().describe("first line to read (1-based)"),
    limit: z.number().int().min(1).max(5_000).optional().describe("how many lines to read"),
  }),
  idempotent: true,
  async execute(args, ctx) {
    const file = await resolveInRoot(ctx.root, args.path);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") throw new ToolFailure(`there is no file at '${args.path}'`, "check the path; paths are relative to the working directory", { cause: error });
      if (code === "EISDIR") throw new ToolFailure(`'${args.path}' is a directory`, "read a file inside it", { cause: error });
      throw error;
    }
    const lines = text.split("\n");
    const first = args.offset ?? 1;
    const selected = lines.slice(first - 1, args.limit ? first - 1 + args.limit : undefined).join("\n");
    const truncated = selected.length > MAX_CHARS;
    return {
      path: args.path,
      totalLines: lines.length,
      fromLine: first,
      content: truncated ? selected.slice(0, MAX_CHARS) : selected,
      ...(truncated ? { truncated: true, hint: "the content was cut; read on with offset and limit" } : {}),
    };
  },
});
