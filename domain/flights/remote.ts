// A flight on a remote repository, named by its https URL: the hub keeps its own clone of it under
// QUORUM_HOME, fetched again before each flight and checked out at the remote's default branch, and the
// flight starts from that clone as it would from a folder. Its branch is pushed back to the remote, never
// forced. The forge's token (Settings → Forges) reaches git only through its environment, scoped to the
// remote's origin: never in a URL, a clone's config, an argv, an event or an answer.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Executor } from "../../db/client";
import { quorumHome } from "../../db/home";
import { fail } from "../errors";
import { forgeTokenFor } from "../forges/hosts";
import { redactText } from "../hub-secrets";
import { cloneAt, gitAsync } from "../host-git";

export interface RemoteRepository {
  /** As the human gave it, less a trailing slash: what the flight records and the page shows. */
  url: string;
  /** The URL's origin (`https://github.com`), which the token is scoped to. */
  origin: string;
  /** The authority the forge is configured under: lower-case host, with its port when it has one. */
  host: string;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
/** How long one clone or fetch may take before the hub gives up on the remote. */
const NETWORK_TIMEOUT_MS = 180_000;

/** Null for what is no URL (a folder); the remote for an https URL; a 400 saying why for any other URL. */
export function parseRemote(text: string): RemoteRepository | null {
  const trimmed = text.trim();
  if (/^[\w.-]+@[\w.-]+:/.test(trimmed) || trimmed.startsWith("ssh://")) {
    throw fail.invalid("flight", "ssh remotes are not supported yet: give the repository's https URL, with its token in Settings → Forges");
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw fail.invalid("flight", `'${trimmed}' is not a URL git can fetch`);
  }
  if (url.username || url.password) {
    throw fail.invalid("flight", "put no credentials in the repository's URL: add the forge's token in Settings → Forges, where no agent sees it");
  }
  // Plain http only to this machine (a forge on loopback, as in tests): elsewhere the token would cross the network readable.
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK.has(url.hostname))) {
    throw fail.invalid("flight", `a remote repository is fetched over https, not ${url.protocol.replace(":", "")}`);
  }
  if (url.search || url.hash || url.pathname.replace(/\/+$/, "") === "") {
    throw fail.invalid("flight", "give the repository's URL as its forge shows it for cloning, like https://github.com/owner/name.git");
  }
  return { url: `${url.origin}${url.pathname.replace(/\/+$/, "")}`, origin: url.origin, host: url.host.toLowerCase() };
}

/** The https URL of a repository named `owner/name` on a forge host (http on loopback, where tests serve git). */
export function repositoryUrl(host: string, fullName: string): string {
  const { hostname } = new URL(`https://${host}`);
  return `${LOOPBACK.has(hostname) ? "http" : "https"}://${host}/${fullName}.git`;
}

/** Where the hub keeps its clone of `remote`: a readable name for people, a hash of the URL for uniqueness. */
export function mirrorOf(remote: RemoteRepository, home = quorumHome()): string {
  const name = `${remote.host}${new URL(remote.url).pathname}`.replace(/\.git$/, "").replace(/[^A-Za-z0-9._-]+/g, "_");
  const hash = createHash("sha256").update(remote.url).digest("hex").slice(0, 10);
  return join(home, "remotes", `${name.slice(0, 80)}-${hash}`);
}

/** git's configuration for talking to `remote`: the protocol allowed, and the token as a header for its origin only. */
function remoteEnvironment(remote: RemoteRepository, token: string | null): Record<string, string> {
  const settings: [string, string][] = [[`protocol.${new URL(remote.origin).protocol.replace(":", "")}.allow`, "always"]];
  // GitHub (and git's own http-backend behind basic auth) take a token as the password of any user name.
  if (token) settings.push([`http.${remote.origin}/.extraHeader`, `Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`]);
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(settings.length) };
  settings.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** git's own words for a failure, without the token (git does not print headers, but a forge's answer might echo one). */
function reasonOf(error: unknown, token: string | null): string {
  const stderr = (error as { stderr?: string }).stderr?.trim();
  const text = stderr || (error instanceof Error ? error.message : String(error));
  return token ? redactText(text, [{ label: "the forge token", value: token }]) : text;
}

/**
 * Brings the hub's clone of `remote` up to date (cloning it the first time) and checks out the remote's
 * default branch as it stands; returns the clone's folder. A remote git cannot reach is a 400 with git's reason.
 */
export async function syncRemote(db: Executor, remote: RemoteRepository, home?: string): Promise<string> {
  const mirror = mirrorOf(remote, home);
  // One git at a time in a clone (a launch and the dialog's look may arrive together): git's own locks would refuse the second.
  const before = syncing.get(mirror) ?? Promise.resolve();
  const done = before.then(() => fetchInto(db, remote, mirror));
  syncing.set(
    mirror,
    done.catch(() => {}),
  );
  return done;
}

const syncing = new Map<string, Promise<unknown>>();

async function fetchInto(db: Executor, remote: RemoteRepository, mirror: string): Promise<string> {
  const token = await forgeTokenFor(db, remote.host);
  const env = remoteEnvironment(remote, token);
  const run = (args: string[]) =>
    gitAsync(existsSync(join(mirror, ".git")) ? cloneAt(mirror) : null, args, { env, timeout: NETWORK_TIMEOUT_MS, cwd: existsSync(mirror) ? mirror : dirname(mirror) });
  try {
    if (!existsSync(join(mirror, ".git"))) {
      rmSync(mirror, { recursive: true, force: true });
      mkdirSync(dirname(mirror), { recursive: true });
      await run(["clone", "--quiet", "--no-checkout", "--origin", "origin", remote.url, mirror]);
    } else {
      await run(["fetch", "--quiet", "--prune", "origin"]);
    }
    await run(["remote", "set-head", "origin", "--auto"]);
    const head = (await run(["symbolic-ref", "--short", "refs/remotes/origin/HEAD"])).trim();
    const branch = head.replace(/^origin\//, "");
    // The hub's clone is the hub's: it follows the remote, whatever was checked out before.
    await run(["checkout", "--quiet", "--force", "-B", branch, head]);
  } catch (error) {
    const reason = reasonOf(error, token);
    const hint = token ? "" : ` (no token for ${remote.host} in Settings → Forges)`;
    throw fail.invalid("flight", `git could not fetch ${remote.url}${hint}: ${reason}`);
  }
  return mirror;
}

/**
 * Pushes the flight's branch from the hub's clone to the remote, as a fast-forward only; null when it went,
 * else git's reason (a remote branch someone else moved is left as it is).
 */
export async function pushToRemote(db: Executor, url: string, mirror: string, branch: string): Promise<string | null> {
  const remote = parseRemote(url);
  if (!remote) return null;
  const token = await forgeTokenFor(db, remote.host);
  try {
    await gitAsync(cloneAt(mirror), ["push", "--quiet", "origin", `refs/heads/${branch}:refs/heads/${branch}`], {
      env: remoteEnvironment(remote, token),
      timeout: NETWORK_TIMEOUT_MS,
    });
    return null;
  } catch (error) {
    return `git could not push ${branch} to ${remote.url}: ${reasonOf(error, token)}`;
  }
}
