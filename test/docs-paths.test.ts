// The docs point only at files that exist: every repository path written in backticks in README.md and
// docs/*.md names a file or folder of this checkout, so a file that moves without its docs fails here.
// A path is a backticked token that starts with a top-level folder and a slash (`domain/rooms/`), or a
// bare file name (`proxy.ts`, `claim.ts`: a top-level file, or a short name for a file deeper in the
// tree). Globs (`app/api/**/route.ts`) must match a file; `<placeholders>` stand for one name or part
// of one; a path without an extension may name a module (`agents/replay` is agents/replay.ts); a path
// that starts with `../` is read from the page's folder and must stay inside the repository.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** File names the docs mention that live outside the repository, each with its reason. */
const OUTSIDE_THE_REPOSITORY = new Set([
  // Claude Code's project configuration, in the user's own project.
  ".mcp.json",
]);

/** Extensions of the files a bare name may name. */
const FILE_NAME = /^[A-Za-z0-9_.<][\w.<>-]*\.(ts|tsx|js|cjs|mjs|json|md|sql|sh|css|svg)$/;
const MODULE_EXTENSIONS = [".ts", ".tsx", ".js", ".cjs", ".mjs"];
const GLOB = /[*?{[]/;

/** The files of this checkout: tracked or new, not ignored, and still on disk. */
function repositoryFiles(): string[] {
  let listed: string;
  try {
    listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    throw new Error("docs-paths needs git to list the repository's files (run it in a clone)", { cause: error });
  }
  return [...new Set(listed.split("\0").filter(Boolean))].filter((file) => existsSync(join(ROOT, file)));
}

/** Inline code spans of a Markdown text, fenced blocks left out (they hold commands and diagrams). */
function inlineCode(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1].trim());
}

interface Tree {
  files: string[];
  /** Folders at the root (`server`, `.ci`…) and files at the root (`README.md`, `proxy.ts`…). */
  topFolders: Set<string>;
  topFiles: Set<string>;
  basenames: Set<string>;
}

function treeOf(files: string[]): Tree {
  const topFolders = new Set(files.filter((f) => f.includes("/")).map((f) => f.slice(0, f.indexOf("/"))));
  const topFiles = new Set(files.filter((f) => !f.includes("/")));
  return { files, topFolders, topFiles, basenames: new Set(files.map((f) => basename(f))) };
}

/** A `<placeholder>` stands for any part of one name. */
const unplaceholder = (token: string) => token.replace(/<[^<>/]+>/g, "*");

const matchesAny = (pattern: string, candidates: Iterable<string>) => {
  const test = picomatch(pattern, { dot: true });
  for (const candidate of candidates) if (test(candidate)) return true;
  return false;
};

/** Whether a token of `page` is a path in the repository's sense (see the header), and if so whether it exists. */
function checkToken(token: string, tree: Tree, page: string): "not_a_path" | "exists" | "missing" {
  if (/\s/.test(token)) return "not_a_path";
  if (token.startsWith("../")) {
    // Relative to the page: above the root is outside the repository; inside it, it must be a path of the tree.
    const resolved = posix.normalize(posix.join(posix.dirname(page), token));
    if (resolved.startsWith("../")) return "missing";
    const verdict = checkToken(resolved, tree, "");
    return verdict === "not_a_path" ? "missing" : verdict;
  }
  const slash = token.indexOf("/");
  if (slash === -1) {
    if (!FILE_NAME.test(token) || OUTSIDE_THE_REPOSITORY.has(token)) return "not_a_path";
    const name = unplaceholder(token);
    if (GLOB.test(name)) return matchesAny(name, tree.basenames) ? "exists" : "missing";
    return tree.topFiles.has(name) || tree.basenames.has(name) ? "exists" : "missing";
  }
  if (!tree.topFolders.has(token.slice(0, slash))) return "not_a_path";
  const path = unplaceholder(token);
  const folder = path.endsWith("/");
  const bare = folder ? path.slice(0, -1) : path;
  if (GLOB.test(bare)) {
    return matchesAny(folder ? `${bare}/**` : bare, tree.files) || (!folder && matchesAny(`${bare}/**`, tree.files)) ? "exists" : "missing";
  }
  const inFolder = tree.files.some((file) => file.startsWith(`${bare}/`));
  if (folder) return inFolder ? "exists" : "missing";
  const asFile = [bare, ...MODULE_EXTENSIONS.map((ext) => bare + ext), `${bare}/index.ts`];
  return inFolder || asFile.some((candidate) => tree.files.includes(candidate)) ? "exists" : "missing";
}

/** The paths of the Markdown page `page` (its path from the root) that name nothing in the tree. */
function stalePaths(page: string, markdown: string, tree: Tree): string[] {
  return [...new Set(inlineCode(markdown).filter((token) => checkToken(token, tree, page) === "missing"))];
}

describe("the docs' paths", () => {
  it("name files and folders that exist, in README.md and every page of docs/", () => {
    const tree = treeOf(repositoryFiles());
    const pages = [
      "README.md",
      ...readdirSync(join(ROOT, "docs"))
        .filter((name) => name.endsWith(".md"))
        .map((name) => `docs/${name}`),
    ];
    const stale = pages.flatMap((page) => stalePaths(page, readFileSync(join(ROOT, page), "utf8"), tree).map((token) => `${page}: \`${token}\``));
    expect(stale).toEqual([]);
    // The check read the pages it is about: the design and the conventions are among them.
    expect(pages).toEqual(expect.arrayContaining(["README.md", "docs/DESIGN.md", "docs/CONVENTIONS.md"]));
  });

  it("flags a moved file and a missing folder, and lets globs, placeholders, modules and prose through", () => {
    const tree = treeOf([
      "README.md",
      "proxy.ts",
      "domain/rooms/post-message.ts",
      "domain/tasks/claim.ts",
      "db/functions/quorum_post_message.sql",
      "app/api/tasks/route.ts",
      ".ci/run",
    ]);
    const doc = [
      "The gates live in `domain/rooms/gates.ts` and `domain/rooms/post-message.ts`; claims in `domain/tasks/` and `domain/claims/`.",
      "Each SQL function is `db/functions/<name>.sql`; routes are `app/api/**/route.ts`; `app/api/**/page.tsx` is not.",
      "`domain/tasks/claim` is a module, `proxy.ts` a top-level file, `claim.ts` a short name, `middleware.ts` gone.",
      "CI runs `.ci/run`. Not paths: `npm run lint`, `GET /api/tasks`, `quorum/client`, `$QUORUM_HOME/pg`, `.mcp.json`, `-quick.md`.",
      "Relative to this page (docs/): `../README.md` is here, `../domain/tasks/` too; `../shared/DESIGN.md` and `../../x.md` are not.",
      "```sh",
      "cat domain/nowhere.ts `domain/nowhere.ts`",
      "```",
    ].join("\n");
    expect(stalePaths("docs/PAGE.md", doc, tree)).toEqual(["domain/rooms/gates.ts", "domain/claims/", "app/api/**/page.tsx", "middleware.ts", "../shared/DESIGN.md", "../../x.md"]);
  });
});
