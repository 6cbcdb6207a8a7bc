// Webhooks and forges as the browser receives them: domain/webhooks' and domain/forges' own view types (type-only).
export type { AddedWebhook, WebhookList } from "@/domain/webhooks/manage";
export type { WebhookDeliveryView as WebhookDelivery, WebhookView as Webhook } from "@/domain/webhooks/view";
export type { ForgeHostView as ForgeHost } from "@/domain/forges/hosts";
export type { WebhookSecretView as WebhookSecret } from "@/domain/forges/settings";
