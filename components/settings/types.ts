// Webhooks as the browser receives them: server/webhooks' own view types (type-only).
export type { AddedWebhook, WebhookList } from "@/server/webhooks/manage";
export type { WebhookDeliveryView as WebhookDelivery, WebhookView as Webhook } from "@/server/webhooks/view";
