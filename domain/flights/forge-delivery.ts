// A forge's webhook delivery: GitHub posts it to /api/forges/{host}/webhook when something happens on a
// repository. It is believed only when its X-Hub-Signature-256 verifies with the secret the host's humans set
// (@octokit/webhooks), and only once: a delivery id seen before is a replay and refused. A delivery is a nudge, not
// a source of truth: the flight's pull request is then read again through the API with the hub's token
// (./pull-request-state.ts), so a forged or stale payload can change nothing by what it claims.
import { Webhooks } from "@octokit/webhooks";
import { and, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import { z } from "zod";
import { flights, forgeDeliveries, forgeHosts } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { forgeHostName } from "../forges/hosts";
import { appendEvent } from "../journal/append";
import { getSystemPrincipal } from "../principals/create-principal";
import { proposeFromIssue } from "./proposals";
import { repositoryKey } from "./pull-request";
import { repositoryUrl } from "./remote";

export interface Delivery {
  host: string;
  /** X-GitHub-Event, X-GitHub-Delivery and X-Hub-Signature-256 as received (null when absent). */
  event: string | null;
  deliveryId: string | null;
  signature: string | null;
  /** The body exactly as received: the signature is over these bytes. */
  payload: string;
}

export interface DeliveryReceipt {
  received: true;
  event: string;
  /** The flight whose pull request it concerned, read again at the team's next turn. */
  flight: number | null;
  /** An issue labelled for the team became a flight proposal. */
  proposed: boolean;
}

const NOT_SIGNED = "this delivery's X-Hub-Signature-256 does not verify with the webhook secret set for its host in Settings → Forges";

/** What of a payload says which pull request or issue it is about; GitHub sends much more, left unread. */
const payloadShape = z.looseObject({
  action: z.string().optional(),
  repository: z.looseObject({ full_name: z.string() }).optional(),
  pull_request: z.looseObject({ number: z.number().int() }).optional(),
  check_run: z.looseObject({ pull_requests: z.array(z.looseObject({ number: z.number().int() })) }).optional(),
  check_suite: z.looseObject({ pull_requests: z.array(z.looseObject({ number: z.number().int() })) }).optional(),
  issue: z
    .looseObject({
      number: z.number().int(),
      title: z.string(),
      body: z.string().nullable().optional(),
      html_url: z.string(),
      labels: z.array(z.union([z.string(), z.looseObject({ name: z.string() })])).optional(),
      pull_request: z.unknown().optional(),
    })
    .optional(),
});
type Payload = z.infer<typeof payloadShape>;

/** Verifies, records once and routes one delivery; throws 401 (not signed), 400 (not GitHub's shape), 409 (a replay). */
export async function receiveForgeDelivery(db: Db, delivery: Delivery, clock: Clock): Promise<DeliveryReceipt> {
  // Who may deliver comes first: an unknown host, a host without a secret and a bad signature are refused alike.
  const host = forgeHostName.safeParse(delivery.host);
  const [forge] = host.success ? await db.select({ secret: forgeHosts.webhookSecret }).from(forgeHosts).where(eq(forgeHosts.host, host.data)) : [];
  if (!forge?.secret || !delivery.signature || !(await signedWith(forge.secret, delivery.payload, delivery.signature))) throw fail.unauthorized(NOT_SIGNED);
  const { event, deliveryId } = delivery;
  if (!event || !deliveryId || deliveryId.length > 200 || event.length > 100) {
    throw fail.invalid("forge", "a delivery carries X-GitHub-Event and X-GitHub-Delivery, as GitHub sends them");
  }
  let parsed: Payload;
  try {
    parsed = payloadShape.parse(JSON.parse(delivery.payload));
  } catch (error) {
    throw fail.invalid("forge", "the delivery's body is not a GitHub webhook payload in JSON", undefined, error);
  }
  const forgeHost = host.data!;
  const system = await getSystemPrincipal(db);
  const flight = await flightConcerned(db, forgeHost, parsed);
  await db.transaction(async (tx) => {
    const now = clock.now();
    const [fresh] = await tx
      .insert(forgeDeliveries)
      .values({ deliveryId, host: forgeHost, event, flightId: flight?.id ?? null, receivedAt: now })
      .onConflictDoNothing()
      .returning({ id: forgeDeliveries.deliveryId });
    if (!fresh) throw fail.conflict("forge", "delivery_replayed", `delivery ${deliveryId} was received before: a replay changes nothing`);
    await appendEvent(tx, {
      kind: "ForgeDeliveryReceived",
      actor: system.id,
      taskId: flight?.goalTaskId ?? null,
      t: now,
      data: { host: forgeHost, event, deliveryId, flightNumber: flight?.number ?? null },
    });
  });
  const proposed = event === "issues" && ["opened", "labeled"].includes(parsed.action ?? "") ? await proposeIssue(db, forgeHost, parsed, clock) : false;
  return { received: true, event, flight: flight?.number ?? null, proposed };
}

async function signedWith(secret: string, payload: string, signature: string): Promise<boolean> {
  try {
    return await new Webhooks({ secret }).verify(payload, signature);
  } catch {
    // A signature of the wrong shape is no signature.
    return false;
  }
}

/** The open flight on this host's repository whose pull request the payload names. */
async function flightConcerned(db: Db, host: string, payload: Payload) {
  const numbers = [
    payload.pull_request?.number,
    ...(payload.check_run?.pull_requests ?? []).map((p) => p.number),
    ...(payload.check_suite?.pull_requests ?? []).map((p) => p.number),
  ].filter((n): n is number => typeof n === "number");
  const repository = payload.repository?.full_name.toLowerCase();
  if (!numbers.length || !repository) return null;
  const candidates = await db
    .select()
    .from(flights)
    .where(and(isNotNull(flights.remote), inArray(flights.pullRequestNumber, numbers), isNull(flights.mergedAt), isNull(flights.closedAt)));
  return candidates.find((f) => repositoryKey(f.remote!) === `${host}/${repository}`) ?? null;
}

async function proposeIssue(db: Db, host: string, payload: Payload, clock: Clock): Promise<boolean> {
  const { issue, repository } = payload;
  if (!issue || !repository || issue.pull_request !== undefined) return false;
  const remote = repositoryUrl(host, repository.full_name);
  const labels = (issue.labels ?? []).map((l) => (typeof l === "string" ? l : l.name));
  return proposeFromIssue(db, { host, remote, issue: { number: issue.number, title: issue.title, body: issue.body ?? "", html_url: issue.html_url, labels } }, clock);
}
