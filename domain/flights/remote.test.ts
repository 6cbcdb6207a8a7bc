// Flights on a remote repository, against git's own http-backend on loopback behind a token: the hub clones it
// with the forge's token (Settings → Forges), fetches again before the next flight, pushes the flight's branch
// back without forcing, and the token shows nowhere — not in an event, the flight's view, the clone's config or
// a refusal.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { startGitHttpServer, type GitHttpServer } from "../../test/fixtures/git-http-server";
import { refusalOf } from "../../test/fixtures/refusal";
import { fixtureRepo } from "../../test/fixtures/repos";
import { makeHuman } from "../../test/helpers";
import { systemClock } from "../clock";
import { quorumHomePath } from "../config";
import { addForgeHost } from "../forges/hosts";
import { launchFlight } from "./launch";
import { mirrorOf, parseRemote, pushToRemote } from "./remote";
import { ensureTeamMember } from "./team-members";
import { readFlight } from "./view";

const TOKEN = "forge-token-5f1c9a7e2b";
const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-C", cwd, ...args], { encoding: "utf8" }).trim();
let forge: GitHttpServer;
let home: string;

/** A repository on the forge, `owner/NAME.git`, and a working clone of it to commit from as its users would. */
function forgeRepository(name: string): { url: string; bare: string } {
  const work = fixtureRepo(name, { "package.json": JSON.stringify({ scripts: { test: "node --test" } }), "index.js": "export const one = 1;\n" });
  const bare = join(forge.root, "owner", `${name}.git`);
  execFileSync("git", ["clone", "--quiet", "--bare", work, bare]);
  return { url: `${forge.origin}/owner/${name}.git`, bare };
}

beforeAll(async () => {
  forge = await startGitHttpServer(TOKEN);
  home = mkdtempSync(join(quorumHomePath(), "remote-flights-"));
  await ensureTeamMember(getDb(), "orchestrator", "orchestrator", 1000, systemClock);
});
afterAll(() => forge.close());

describe("a repository named by URL", () => {
  it("tells a URL from a folder, and refuses what it cannot fetch safely, saying why", () => {
    expect(parseRemote("/home/ada/parser")).toBeNull();
    expect(parseRemote("https://github.com/ada/parser.git/")).toEqual({ url: "https://github.com/ada/parser.git", origin: "https://github.com", host: "github.com" });
    expect(() => parseRemote("https://ada:ghp_secret@github.com/ada/parser.git")).toThrow(/no credentials in the repository's URL/);
    expect(() => parseRemote("git@github.com:ada/parser.git")).toThrow(/ssh remotes are not supported yet/);
    expect(() => parseRemote("http://github.com/ada/parser.git")).toThrow(/over https, not http/);
    expect(() => parseRemote("https://github.com/")).toThrow(/as its forge shows it for cloning/);
    // git's other transports never run: a local file, or `ext::`, which would run a command (it is no URL, so a folder, refused as one).
    expect(() => parseRemote("file:///etc/passwd")).toThrow(/over https, not file/);
    expect(parseRemote("ext::sh -c touch% /tmp/pwned")).toBeNull();
  });

  it("starts a flight from the remote's default branch with the forge's token, which shows nowhere", async () => {
    const db = getDb();
    const human = await makeHuman();
    const { url, bare } = forgeRepository("parser");
    await addForgeHost(db, human, { host: forge.host, kind: "github", apiUrl: `${forge.origin}/api/v3`, token: TOKEN }, systemClock);

    const { flight } = await launchFlight(db, human, { repo: url, goal: "Make one two.", mode: "scripted", home }, systemClock);
    const remote = parseRemote(url)!;
    expect(flight).toMatchObject({ remote: url, source: mirrorOf(remote, home), baseCommit: git(bare, "rev-parse", "HEAD"), baseBranch: "main", testCommand: "npm test" });
    expect(forge.requests.some((r) => r.authorized)).toBe(true);
    // The token is in no event, no view of the flight, and not in the hub's clone's config.
    const [{ n }] = await db.execute<{ n: number }>(sql`select count(*)::int as n from events where data::text like ${`%${TOKEN}%`}`);
    expect(n).toBe(0);
    expect(JSON.stringify(await readFlight(db, flight.id))).not.toContain(TOKEN);
    expect(readFileSync(join(flight.source!, ".git", "config"), "utf8")).not.toContain(TOKEN);

    // Someone pushes to the remote: the next flight starts from the new commit, fetched again.
    const work = mkdtempSync(join(quorumHomePath(), "forge-user-"));
    execFileSync("git", ["clone", "--quiet", bare, work]);
    execFileSync("git", ["-C", work, "-c", "user.name=Ada", "-c", "user.email=ada@example.com", "commit", "--quiet", "--allow-empty", "-m", "Later work"]);
    execFileSync("git", ["-C", work, "push", "--quiet", "origin", "main"]);
    const { flight: next } = await launchFlight(db, human, { repo: url, goal: "Make one three.", mode: "scripted", home }, systemClock);
    expect(next.baseCommit).toBe(git(bare, "rev-parse", "HEAD"));
    expect(next.source).toBe(flight.source);

    // The flight's branch goes back to the remote; a remote branch someone else moved is not forced over.
    execFileSync("git", ["-C", flight.source!, "branch", "--force", flight.branch!, next.baseCommit!]);
    expect(await pushToRemote(db, url, flight.source!, flight.branch!)).toBeNull();
    expect(git(bare, "rev-parse", flight.branch!)).toBe(next.baseCommit);
    execFileSync("git", ["-C", flight.source!, "branch", "--force", flight.branch!, flight.baseCommit!]);
    const refused = await pushToRemote(db, url, flight.source!, flight.branch!);
    expect(refused).toMatch(/git could not push quorum\/flight-\d+ to .*rejected/s);
    expect(git(bare, "rev-parse", flight.branch!)).toBe(next.baseCommit);
  });

  it("takes `ext::` and other non-URLs as a folder, refused as one before git runs", async () => {
    const refusal = await refusalOf(launchFlight(getDb(), await makeHuman(), { repo: "ext::sh -c touch% /tmp/quorum-ext-pwned", goal: "x", mode: "scripted", home }, systemClock));
    expect(refusal.message).toContain("must be an absolute path");
  });

  it("refuses a remote it cannot fetch with git's reason, naming the missing token, and starts nothing", async () => {
    const db = getDb();
    const human = await makeHuman();
    const other = await startGitHttpServer("another-token-0000", forge.root);
    try {
      const url = `${other.origin}/owner/parser.git`;
      const refusal = await refusalOf(launchFlight(db, human, { repo: url, goal: "Anything.", mode: "scripted", home }, systemClock));
      expect(refusal.kind).toBe("invalid");
      expect(refusal.message).toContain(`git could not fetch ${url} (no token for ${other.host} in Settings → Forges)`);
      expect(other.requests.every((r) => !r.authorized)).toBe(true);
      const [{ n }] = await db.execute<{ n: number }>(sql`select count(*)::int as n from flights where remote = ${url}`);
      expect(n).toBe(0);
    } finally {
      await other.close();
    }
  });
});
