// The hub's own secrets, kept out of what the team's tools return: a tool's observation is journalled,
// stored on its task and sent to the model, so a test that prints the database password or a key
// would otherwise publish it to every reader of the journal and to the model's vendor.
// The hub knows: the credentials in its environment (domain/config.ts), the embedded database's
// passwords, the webhook signing secrets (and A2A push configs' tokens and credentials), the forges' tokens (Settings → Forges);
// the keys and session tokens it minted are stored only as hashes, so they are recognised by their shape instead.
import { storedPasswords } from "../db/passwords-file";
import { forgeHosts, webhookEndpoints } from "../db/schema";
import type { Db } from "../db/client";
import { quorumHomePath, secretsInEnvironment } from "./config";
import { MINTED_SECRET_SHAPE } from "./principals/secrets";
import { WEBHOOK_SECRET_SHAPE } from "./webhooks/signature";

/** Shorter values are not treated as secrets: redacting "1" or "dev" everywhere would garble every output. */
const MIN_SECRET_LENGTH = 8;

/** The shapes of what Quorum mints, from where it mints them. */
const MINTED_SHAPES = new RegExp(`${MINTED_SECRET_SHAPE.source}|${WEBHOOK_SECRET_SHAPE.source}`, "g");

export interface HubSecret {
  /** What a reader sees in its place: which secret, never any of it. */
  label: string;
  value: string;
}

/** Every secret the hub knows now (webhooks and forges come and go, so the database is asked each time). */
export async function hubSecrets(db: Db): Promise<HubSecret[]> {
  const [webhooks, forges] = await Promise.all([
    db.select({ secret: webhookEndpoints.secret, token: webhookEndpoints.notificationToken, authorization: webhookEndpoints.authorization }).from(webhookEndpoints),
    db.select({ host: forgeHosts.host, token: forgeHosts.token, webhookSecret: forgeHosts.webhookSecret }).from(forgeHosts),
  ]);
  return [
    ...secretsInEnvironment().map(({ name, value }) => ({ label: name, value })),
    ...storedPasswords(quorumHomePath()).map((value) => ({ label: "the embedded database's password", value })),
    ...webhooks.map(({ secret }) => ({ label: "a webhook secret", value: secret })),
    // An A2A push config's receiver checks these (domain/webhooks/a2a-push.ts): its token, and the credentials after the scheme.
    ...webhooks.flatMap(({ token, authorization }) => [
      ...(token ? [{ label: "an A2A push token", value: token }] : []),
      ...(authorization?.includes(" ") ? [{ label: "an A2A push credential", value: authorization.slice(authorization.indexOf(" ") + 1) }] : []),
    ]),
    ...forges.map(({ host, token }) => ({ label: `the forge token for ${host}`, value: token })),
    ...forges.flatMap(({ host, webhookSecret }) => (webhookSecret ? [{ label: `the webhook secret for ${host}`, value: webhookSecret }] : [])),
  ];
}

/** Replaces each secret (as written, and URL-encoded) and each minted key or token in `text`. */
export function redactText(text: string, secrets: readonly HubSecret[]): string {
  let out = text;
  // Longest first, so a secret containing another is replaced whole.
  for (const { label, value } of [...secrets].sort((a, b) => b.value.length - a.value.length)) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    for (const form of new Set([value, encodeURIComponent(value)])) out = out.split(form).join(`[redacted: ${label}]`);
  }
  return out.replace(MINTED_SHAPES, "[redacted: a Quorum key or token]");
}

/** The same for every string inside a JSON value (keys included), leaving its shape as it was. */
export function redactValue<T>(value: T, secrets: readonly HubSecret[]): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redactText(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, inner]) => [redactText(k, secrets), walk(inner)]));
    return v;
  };
  return walk(value) as T;
}
