// Forge hosts: where remote repositories live (github.com, a GitHub Enterprise), each with the token the hub
// fetches, pushes and opens pull requests with. Humans connect, re-key and remove them in Settings; the token is a
// hub secret (../hub-secrets.ts): no answer carries it, no event names it, every tool's output is scrubbed of it.
// Their settings beside the token (intake label, polling, webhook secret) are changed in ./settings.ts.
import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { FORGE_KINDS, type ForgeKind, forgeHosts, principals } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import type { Clock } from "../clock";
import { appUrl } from "../config";
import { fail } from "../errors";
import { isUuid } from "../ids";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";

export { FORGE_KINDS, type ForgeKind };

/** DNS labels, an IPv4 address or a bracketed IPv6 one, then an optional port: a URL's authority without credentials. */
const HOST_SHAPE = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/**
 * A host as a repository's URL names it, read as `new URL` reads an https one (so `GitHub.com:443` is `github.com`):
 * remotes are matched on exactly that (domain/flights/remote.ts).
 */
export const forgeHostName = z
  .string()
  .trim()
  .toLowerCase()
  .max(260)
  .refine((host) => HOST_SHAPE.test(host) && URL.canParse(`https://${host}`), "a host as in a repository's URL, like github.com or git.example.com:8443 (no https://, no path)")
  .transform((host) => new URL(`https://${host}`).host);

/** The forge's REST base: an http(s) URL without credentials, query or fragment, kept without its trailing slash. */
export const forgeApiUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol), "an http:// or https:// URL")
  .refine((value) => {
    // Checks run on after the one above fails; a value that is no URL was refused there already.
    const url = URL.canParse(value) ? new URL(value) : null;
    return !url || (!url.username && !url.password && !url.search && !url.hash);
  }, "the API's base URL alone: no credentials, query or fragment (the token goes in its own field)")
  .transform((value) => value.replace(/\/+$/, ""));

/** Forges issue long tokens; a short one would also slip past redaction, which leaves values under 8 characters alone. */
export const forgeToken = z
  .string()
  .trim()
  .min(8, "a forge's token is at least 8 characters")
  .max(1000)
  .regex(/^[\x21-\x7e]+$/, "a token is printable characters without spaces");

export const addForgeHostInput = z.strictObject({
  host: forgeHostName,
  kind: z.enum(FORGE_KINDS).default("github"),
  apiUrl: forgeApiUrl.optional().describe("defaults to https://api.github.com for github.com, else https://HOST/api/v3 (GitHub Enterprise)"),
  token: forgeToken,
});
export type AddForgeHostInput = z.output<typeof addForgeHostInput>;

export const replaceForgeTokenInput = z.strictObject({ token: forgeToken });
export type ReplaceForgeTokenInput = z.output<typeof replaceForgeTokenInput>;

/**
 * What a human sees of a forge: everything but its secrets. Of the token only the last 4 characters, to tell tokens
 * apart; of the webhook secret only whether there is one.
 */
export interface ForgeHostView {
  id: string;
  host: string;
  kind: ForgeKind;
  apiUrl: string;
  tokenEnding: string;
  /** Issues given this label on the host's repositories become flight proposals; null: no intake. */
  intakeLabel: string | null;
  /** Whether the hub asks the forge about pull requests and labelled issues itself, rather than waiting for webhooks. */
  pollPullRequests: boolean;
  webhookSecretSet: boolean;
  /** Where the forge sends this host's webhook deliveries: what a human pastes into GitHub. */
  webhookUrl: string;
  createdByName: string;
  createdAt: string;
}

/** GitHub's REST base for `host`: its own API host for github.com, the Enterprise path anywhere else. */
export function defaultApiUrl(host: string): string {
  return host === "github.com" ? "https://api.github.com" : `https://${host}/api/v3`;
}

/** The hub's address for `host`'s webhook deliveries (QUORUM_URL, else this machine's). */
export function webhookUrlOf(host: string, hub = appUrl()): string {
  return `${hub}/api/forges/${encodeURIComponent(host)}/webhook`;
}

export function requireHuman(caller: Principal, what: string): void {
  if (caller.kind !== "human") throw fail.forbidden("forge", `only humans ${what} forges: their tokens are the hub's, never an agent's`);
}

export type ForgeRow = typeof forgeHosts.$inferSelect;

export function forgeView(row: ForgeRow, createdByName: string): ForgeHostView {
  return {
    id: row.id,
    host: row.host,
    kind: row.kind,
    apiUrl: row.apiUrl,
    tokenEnding: row.token.slice(-4),
    intakeLabel: row.intakeLabel,
    pollPullRequests: row.pollPullRequests,
    webhookSecretSet: row.webhookSecret !== null,
    webhookUrl: webhookUrlOf(row.host),
    createdByName,
    createdAt: row.createdAt.toISOString(),
  };
}

/** What the journal says of a forge: never its token. */
export const described = (row: ForgeRow) => ({ host: row.host, kind: row.kind, apiUrl: row.apiUrl });

/** Every forge host, by host (humans only). */
export async function listForgeHosts(db: Executor, caller: Principal): Promise<{ items: ForgeHostView[] }> {
  requireHuman(caller, "see");
  const rows = await db
    .select({ row: forgeHosts, createdByName: principals.name })
    .from(forgeHosts)
    .innerJoin(principals, eq(principals.id, forgeHosts.createdBy))
    .orderBy(asc(forgeHosts.host));
  return { items: rows.map(({ row, createdByName }) => forgeView(row, createdByName)) };
}

export async function addForgeHost(db: Db, caller: Principal, input: z.input<typeof addForgeHostInput>, clock: Clock): Promise<ForgeHostView> {
  requireHuman(caller, "connect");
  const { host, kind, apiUrl, token } = addForgeHostInput.parse(input);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(forgeHosts)
      .values({ host, kind, apiUrl: apiUrl ?? defaultApiUrl(host), token, createdBy: caller.id, createdAt: now })
      .onConflictDoNothing({ target: forgeHosts.host })
      .returning();
    if (!row) throw fail.conflict("forge", "host_taken", `${host} is connected already: replace its token instead`);
    await appendEvent(tx, { kind: "ForgeHostAdded", actor: caller.id, t: now, data: described(row) });
    return forgeView(row, caller.name);
  });
}

/** The forge `id`, locked for the caller's transaction; 404 for an id that names none. */
export async function lockForge(tx: Executor, id: string): Promise<{ row: ForgeRow; createdByName: string }> {
  const [found] = isUuid(id)
    ? await tx
        .select({ row: forgeHosts, createdByName: principals.name })
        .from(forgeHosts)
        .innerJoin(principals, eq(principals.id, forgeHosts.createdBy))
        .where(eq(forgeHosts.id, id))
        .for("update", { of: forgeHosts })
    : [];
  if (!found) throw fail.notFound("forge", `no forge ${id.slice(0, 64)}`);
  return found;
}

/** A new token for a forge (the old one stops being used at once): a rotation, or a token that expired. */
export async function replaceForgeToken(db: Db, caller: Principal, id: string, input: z.input<typeof replaceForgeTokenInput>, clock: Clock): Promise<ForgeHostView> {
  requireHuman(caller, "re-key");
  const { token } = replaceForgeTokenInput.parse(input);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const { row, createdByName } = await lockForge(tx, id);
    const [updated] = await tx.update(forgeHosts).set({ token }).where(eq(forgeHosts.id, row.id)).returning();
    await appendEvent(tx, { kind: "ForgeTokenReplaced", actor: caller.id, t: now, data: described(updated) });
    return forgeView(updated, createdByName);
  });
}

/** Forgets a forge and its token: remotes on that host are then fetched without one (a public repository still works). */
export async function removeForgeHost(db: Db, caller: Principal, id: string, clock: Clock): Promise<void> {
  requireHuman(caller, "remove");
  const now = clock.now();
  await db.transaction(async (tx) => {
    const { row } = await lockForge(tx, id);
    await tx.delete(forgeHosts).where(eq(forgeHosts.id, row.id));
    await appendEvent(tx, { kind: "ForgeHostRemoved", actor: caller.id, t: now, data: described(row) });
  });
}

/** The token the hub uses on `host` (a URL's authority, matched whole, in any case), or null when none is connected. */
export async function forgeTokenFor(db: Executor, host: string): Promise<string | null> {
  const [row] = await db.select({ token: forgeHosts.token }).from(forgeHosts).where(eq(forgeHosts.host, host.trim().toLowerCase()));
  return row?.token ?? null;
}

/** What the hub talks to `host`'s API with: its kind, REST base and token; null when none is connected. */
export async function forgeOf(db: Executor, host: string): Promise<{ kind: ForgeKind; apiUrl: string; token: string; pollPullRequests: boolean } | null> {
  const [row] = await db
    .select({ kind: forgeHosts.kind, apiUrl: forgeHosts.apiUrl, token: forgeHosts.token, pollPullRequests: forgeHosts.pollPullRequests })
    .from(forgeHosts)
    .where(eq(forgeHosts.host, host.trim().toLowerCase()));
  return row ?? null;
}
