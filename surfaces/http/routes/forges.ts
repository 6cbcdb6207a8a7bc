// Forges: the hosts of remote repositories humans connect in Settings, each with the token the hub uses there, its
// intake label, polling, and webhook secret.
import { addForgeHost, addForgeHostInput, listForgeHosts, removeForgeHost, replaceForgeToken, replaceForgeTokenInput } from "@/domain/forges/hosts";
import { changeForgeSettings, forgeSettingsInput, generateWebhookSecret, removeWebhookSecret } from "@/domain/forges/settings";
import { z } from "zod";
import * as v from "../views";
import { created, endpoint, noContent, ok, type RouteSpec, TAGS, uuidId } from "./route-spec";

export const FORGE_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/forges",
    tag: TAGS.forges,
    summary: "Every forge host, with its token's last 4 characters only (humans)",
    access: "principal",
    answers: ok(v.forgeHostList),
    refusals: [403],
    run: async ({ ctx, caller }) => await listForgeHosts(ctx.db, caller),
  }),
  endpoint({
    method: "post",
    path: "/api/forges",
    tag: TAGS.forges,
    summary: "Connect a forge host with its token (humans); 409 `host_taken` when it is connected already",
    access: "principal",
    body: addForgeHostInput,
    answers: created(v.forgeHost),
    refusals: [403, 409],
    otherConflicts: ["host_taken"],
    run: async ({ ctx, caller, body }) => await addForgeHost(ctx.db, caller, body, ctx.clock),
  }),
  endpoint({
    method: "put",
    path: "/api/forges/{id}/token",
    tag: TAGS.forges,
    summary: "Replace a forge's token (humans); the old one is used no more",
    access: "principal",
    params: uuidId,
    body: replaceForgeTokenInput,
    answers: ok(v.forgeHost),
    refusals: [403, 404],
    run: async ({ ctx, caller, params, body }) => await replaceForgeToken(ctx.db, caller, params.id, body, ctx.clock),
  }),
  endpoint({
    method: "patch",
    path: "/api/forges/{id}",
    tag: TAGS.forges,
    summary: "Change a forge's intake label (issues with it become flight proposals; empty: none) or whether the hub polls it (humans)",
    access: "principal",
    params: uuidId,
    body: forgeSettingsInput,
    answers: ok(v.forgeHost),
    refusals: [403, 404],
    run: async ({ ctx, caller, params, body }) => await changeForgeSettings(ctx.db, caller, params.id, body, ctx.clock),
  }),
  endpoint({
    method: "post",
    path: "/api/forges/{id}/webhook-secret",
    tag: TAGS.forges,
    summary: "Generate a new webhook secret for a forge, replacing any before it (humans): answered only here, with the URL to give the forge",
    access: "principal",
    params: uuidId,
    body: z.strictObject({}),
    answers: created(v.webhookSecret),
    refusals: [403, 404],
    run: async ({ ctx, caller, params }) => await generateWebhookSecret(ctx.db, caller, params.id, ctx.clock),
  }),
  endpoint({
    method: "delete",
    path: "/api/forges/{id}/webhook-secret",
    tag: TAGS.forges,
    summary: "Remove a forge's webhook secret (humans): its deliveries are no longer taken, and polling is what remains",
    access: "principal",
    params: uuidId,
    answers: ok(v.forgeHost),
    refusals: [403, 404],
    run: async ({ ctx, caller, params }) => await removeWebhookSecret(ctx.db, caller, params.id, ctx.clock),
  }),
  endpoint({
    method: "delete",
    path: "/api/forges/{id}",
    tag: TAGS.forges,
    summary: "Remove a forge host and its token (humans)",
    access: "principal",
    params: uuidId,
    answers: [noContent("Removed")],
    refusals: [403, 404],
    run: async ({ ctx, caller, params }) => {
      await removeForgeHost(ctx.db, caller, params.id, ctx.clock);
      return null;
    },
  }),
];
