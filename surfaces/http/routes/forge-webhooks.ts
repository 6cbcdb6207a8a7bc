// Where a forge delivers its webhooks: no Quorum key, the delivery's signature with the host's webhook secret is
// its credential (domain/flights/forge-delivery.ts). The body is read raw, since the signature is over its bytes.
import { z } from "zod";
import { receiveForgeDelivery } from "@/domain/flights/forge-delivery";
import { readCapped } from "@/domain/request-body";
import { open } from "../views/base";
import { endpoint, type RouteSpec, TAGS } from "./route-spec";

const deliveryReceipt = open({
  received: z.literal(true),
  event: z.string(),
  flight: z.number().int().nullable(),
  proposed: z.boolean(),
});

export const FORGE_WEBHOOK_ROUTES: RouteSpec[] = [
  endpoint({
    method: "post",
    path: "/api/forges/{host}/webhook",
    tag: TAGS.forges,
    summary: "Receive a forge's webhook delivery (GitHub), signed with the host's webhook secret",
    description:
      "Set this URL as a repository's (or organisation's) webhook on GitHub, content type `application/json`, with the secret Settings → Forges generated. " +
      "Signed with `X-Hub-Signature-256` or refused 401; `X-GitHub-Event` and `X-GitHub-Delivery` required; a delivery id received before is a replay, 409 `delivery_replayed`. " +
      "A pull request review, check run or pull request event about a flight's pull request has the hub read that pull request again at the team's next turn; " +
      "an `issues` event for an issue with the host's intake label proposes a flight.",
    access: "public",
    params: z.strictObject({ host: z.string().max(260) }),
    answers: [{ status: 202, description: "Received; what it concerned", schema: deliveryReceipt }],
    refusals: [401, 409],
    otherConflicts: ["delivery_replayed"],
    run: async ({ ctx, params, request }) => {
      const headers = request.headers;
      return await receiveForgeDelivery(
        ctx.db,
        {
          host: decodeURIComponent(params.host),
          event: headers.get("x-github-event"),
          deliveryId: headers.get("x-github-delivery"),
          signature: headers.get("x-hub-signature-256"),
          payload: await readCapped(request),
        },
        ctx.clock,
      );
    },
  }),
];
