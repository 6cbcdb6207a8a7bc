// Webhooks as the browser receives them: domain/webhooks' own view types (type-only).
export type { AddedWebhook, WebhookList } from "@/domain/webhooks/manage";
export type { WebhookDeliveryView as WebhookDelivery, WebhookView as Webhook } from "@/domain/webhooks/view";
