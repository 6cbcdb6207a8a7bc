// A forge host's settings beside its token: the label that turns its issues into flight proposals, whether the hub
// polls it for pull requests and labelled issues, and the secret GitHub signs its webhook deliveries with. Humans
// change them in Settings → Forges, each change journalled (ForgeSettingsChanged) in its own transaction. The
// webhook secret is a hub secret like the token: generated here, answered once, never journalled nor listed again.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { forgeHosts } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { described, type ForgeHostView, type ForgeRow, forgeView, lockForge, requireHuman, webhookUrlOf } from "./hosts";

/**
 * A GitHub label's name (at most 50 characters there): trimmed, "" for none. A comma is refused because GitHub's
 * issue listing reads `labels` as a comma-separated list, so such a label could never be asked for.
 */
export const intakeLabel = z
  .string()
  .trim()
  .max(50, "a label has at most 50 characters on GitHub")
  .refine((label) => !label.includes(","), "a label without commas (GitHub lists issues by comma-separated labels)")
  .refine((label) => !/\p{Cc}/u.test(label), "a label without control characters")
  .transform((label) => label || null);

export const forgeSettingsInput = z
  .strictObject({
    intakeLabel: intakeLabel.nullable().optional().describe("issues with this label become flight proposals; empty or null: no intake"),
    pollPullRequests: z.boolean().optional().describe("ask the forge about pull requests and labelled issues (on by default); off when its webhooks reach the hub"),
  })
  .refine((input) => input.intakeLabel !== undefined || input.pollPullRequests !== undefined, "give intakeLabel, pollPullRequests or both");
export type ForgeSettingsInput = z.input<typeof forgeSettingsInput>;

/** The secret's one showing: what GitHub's webhook form asks for, the URL and the secret. */
export interface WebhookSecretView {
  secret: string;
  webhookUrl: string;
  forge: ForgeHostView;
}

/** What ForgeSettingsChanged says changed; the secret only as what happened to it. */
type SettingsChange = { intakeLabel?: string | null; pollPullRequests?: boolean; webhookSecret?: "generated" | "regenerated" | "removed" };

async function journalChange(tx: Executor, caller: Principal, row: ForgeRow, change: SettingsChange, clock: Clock): Promise<void> {
  await appendEvent(tx, { kind: "ForgeSettingsChanged", actor: caller.id, t: clock.now(), data: { ...described(row), ...change } });
}

/** Sets a forge's intake label and polling; a value equal to the stored one is no change and journals nothing. */
export async function changeForgeSettings(db: Db, caller: Principal, id: string, input: ForgeSettingsInput, clock: Clock): Promise<ForgeHostView> {
  requireHuman(caller, "configure");
  const asked = forgeSettingsInput.parse(input);
  return db.transaction(async (tx) => {
    const { row, createdByName } = await lockForge(tx, id);
    const change: SettingsChange = {};
    if (asked.intakeLabel !== undefined && (asked.intakeLabel ?? null) !== row.intakeLabel) change.intakeLabel = asked.intakeLabel ?? null;
    if (asked.pollPullRequests !== undefined && asked.pollPullRequests !== row.pollPullRequests) change.pollPullRequests = asked.pollPullRequests;
    if (Object.keys(change).length === 0) return forgeView(row, createdByName);
    const [updated] = await tx.update(forgeHosts).set(change).where(eq(forgeHosts.id, row.id)).returning();
    await journalChange(tx, caller, updated, change, clock);
    return forgeView(updated, createdByName);
  });
}

/** A new webhook secret (32 random bytes, hex), replacing any before it: answered this once, with the URL to give GitHub. */
export async function generateWebhookSecret(db: Db, caller: Principal, id: string, clock: Clock): Promise<WebhookSecretView> {
  requireHuman(caller, "configure");
  const secret = randomBytes(32).toString("hex");
  return db.transaction(async (tx) => {
    const { row, createdByName } = await lockForge(tx, id);
    const [updated] = await tx.update(forgeHosts).set({ webhookSecret: secret }).where(eq(forgeHosts.id, row.id)).returning();
    await journalChange(tx, caller, updated, { webhookSecret: row.webhookSecret ? "regenerated" : "generated" }, clock);
    return { secret, webhookUrl: webhookUrlOf(updated.host), forge: forgeView(updated, createdByName) };
  });
}

/** Forgets the webhook secret: the forge's deliveries are then refused, and the hub relies on polling. */
export async function removeWebhookSecret(db: Db, caller: Principal, id: string, clock: Clock): Promise<ForgeHostView> {
  requireHuman(caller, "configure");
  return db.transaction(async (tx) => {
    const { row, createdByName } = await lockForge(tx, id);
    if (row.webhookSecret === null) return forgeView(row, createdByName);
    const [updated] = await tx.update(forgeHosts).set({ webhookSecret: null }).where(eq(forgeHosts.id, row.id)).returning();
    await journalChange(tx, caller, updated, { webhookSecret: "removed" }, clock);
    return forgeView(updated, createdByName);
  });
}
