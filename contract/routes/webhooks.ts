// Webhooks: endpoints humans register for signed deliveries of journal events.
import { z } from "zod";
import { addWebhookInput } from "@/server/webhooks/manage";
import * as v from "../views";
import { uuidId, ok, created, noContent, type RouteSpec, TAGS } from "./route-spec";

export const WEBHOOK_ROUTES: RouteSpec[] = [
  {
    method: "get",
    path: "/api/webhooks",
    tag: TAGS.webhooks,
    summary: "Every webhook endpoint with its recent deliveries (humans)",
    access: "principal",
    answers: ok(v.anyObject),
    refusals: [403],
  },
  {
    method: "post",
    path: "/api/webhooks",
    tag: TAGS.webhooks,
    summary: "Register an endpoint (humans); its signing secret is shown once",
    access: "principal",
    body: addWebhookInput,
    answers: created(v.anyObject),
    refusals: [403],
  },
  {
    method: "delete",
    path: "/api/webhooks/{id}",
    tag: TAGS.webhooks,
    summary: "Remove an endpoint (humans)",
    access: "principal",
    params: uuidId,
    answers: [noContent("Removed")],
    refusals: [403, 404],
  },
  {
    method: "post",
    path: "/api/webhooks/{id}/test",
    tag: TAGS.webhooks,
    summary: "Queue a signed `webhook.test` delivery (humans)",
    access: "principal",
    params: uuidId,
    body: z.strictObject({}),
    answers: [{ status: 202, description: "Queued", schema: v.anyObject }],
    refusals: [403, 404],
  },
];
