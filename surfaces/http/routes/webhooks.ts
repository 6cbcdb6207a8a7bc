// Webhooks: endpoints humans register for signed deliveries of journal events.
import { z } from "zod";
import { addWebhook, addWebhookInput, listWebhooks, queueTestDelivery, removeWebhook } from "@/domain/webhooks/manage";
import * as v from "../views";
import { uuidId, ok, created, noContent, type RouteSpec, TAGS, endpoint } from "./route-spec";

export const WEBHOOK_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/webhooks",
    tag: TAGS.webhooks,
    summary: "Every webhook endpoint with its recent deliveries (humans)",
    access: "principal",
    answers: ok(v.anyObject),
    refusals: [403],
    run: async ({ ctx, caller }) => await listWebhooks(ctx.db, caller),
  }),
  endpoint({
    method: "post",
    path: "/api/webhooks",
    tag: TAGS.webhooks,
    summary: "Register an endpoint (humans); its signing secret is shown once",
    access: "principal",
    body: addWebhookInput,
    answers: created(v.anyObject),
    refusals: [403],
    run: async ({ ctx, caller, body }) => await addWebhook(ctx.db, caller, body, ctx.clock),
  }),
  endpoint({
    method: "delete",
    path: "/api/webhooks/{id}",
    tag: TAGS.webhooks,
    summary: "Remove an endpoint (humans)",
    access: "principal",
    params: uuidId,
    answers: [noContent("Removed")],
    refusals: [403, 404],
    run: async ({ ctx, caller, params }) => {
      const { id } = params;
      await removeWebhook(ctx.db, caller, id, ctx.clock);
      return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
    },
  }),
  endpoint({
    method: "post",
    path: "/api/webhooks/{id}/test",
    tag: TAGS.webhooks,
    summary: "Queue a signed `webhook.test` delivery (humans)",
    access: "principal",
    params: uuidId,
    body: z.strictObject({}),
    answers: [{ status: 202, description: "Queued", schema: v.anyObject }],
    refusals: [403, 404],
    run: ({ ctx, caller, params }) => queueTestDelivery(ctx.db, caller, params.id, ctx.clock),
  }),
];
