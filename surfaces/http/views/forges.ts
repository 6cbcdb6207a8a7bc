// Forge hosts as humans see them in Settings: everything but their secrets — the token by its last 4 characters, the
// webhook secret only as whether it is set — and the one answer that shows a new webhook secret.
import { z } from "zod";
import { FORGE_KINDS, type ForgeHostView } from "@/domain/forges/hosts";
import type { WebhookSecretView } from "@/domain/forges/settings";
import { open, uuid, when } from "./base";

export const forgeHost = open({
  id: uuid,
  host: z.string(),
  kind: z.enum(FORGE_KINDS),
  apiUrl: z.string(),
  tokenEnding: z.string().describe("the token's last 4 characters, to tell tokens apart; the token itself is never answered"),
  intakeLabel: z.string().nullable().describe("issues with this label become flight proposals; null: no intake"),
  pollPullRequests: z.boolean().describe("whether the hub asks the forge about pull requests and labelled issues itself"),
  webhookSecretSet: z.boolean().describe("whether a webhook secret is set; the secret itself is answered only when generated"),
  webhookUrl: z.string().describe("where the forge should send this host's webhook deliveries"),
  createdByName: z.string(),
  createdAt: when,
}) satisfies z.ZodType<ForgeHostView>;
export const forgeHostList = open({ items: z.array(forgeHost) });

export const webhookSecret = open({
  secret: z.string().describe("shown only in this answer: give it to the forge's webhook as its secret"),
  webhookUrl: z.string(),
  forge: forgeHost,
}) satisfies z.ZodType<WebhookSecretView>;
