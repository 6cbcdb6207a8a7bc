// The GitHub stand-in's repository webhooks, delivered as GitHub's Hookshot delivers them: the same headers, a fresh
// X-GitHub-Delivery GUID per event (kept on a redelivery, so a receiver can tell a replay), and the raw body signed
// with HMAC-SHA256 of the hook's secret, so a receiver's signature check meets the real algorithm rather than a shortcut.
// Every payload is checked against GitHub's published webhook schemas (@octokit/openapi-webhooks, OpenAPI 3.1) and
// every delivery is kept, so a test can read what a receiver got and what it answered, and replay it.
import { createHmac, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";
import type { Delivery, DeliveryOutcome, HookInput, Violation } from "../fixtures/github-stand-in";
import { looseAjv } from "./openapi-validator";
import { api, now, repository, user } from "./github-stand-in-views";

interface Hook {
  id: number;
  url: string;
  secret: string | null;
  /** GitHub's event names; `*` is every event. */
  events: string[];
  /** The repository the hook belongs to; null hears every repository of the stand-in. */
  owner: string | null;
  repo: string | null;
  createdAt: string;
}

const DOCUMENT = "github-webhooks";
/** GitHub gives up on a receiver after ten seconds. */
const TIMEOUT_MS = 10_000;

export class Hookshot {
  readonly deliveries: Delivery[] = [];
  private readonly hooks: Hook[] = [];
  private readonly ajv = looseAjv();
  private readonly schemas = new Map<string, ValidateFunction>();
  private readonly webhooks: Record<string, { post: { operationId: string; requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;

  /** `report` records a payload GitHub's schemas forbid: a bug of the stand-in, as a receiver would get a shape GitHub never sends. */
  constructor(private readonly report: (violation: Violation) => void) {
    // The examples are most of the document and no schema reads them.
    const file = createRequire(import.meta.url).resolve("@octokit/openapi-webhooks/generated/api.github.com.json");
    const { webhooks, components } = JSON.parse(readFileSync(file, "utf8")) as { webhooks: Hookshot["webhooks"]; components: { schemas: unknown } };
    this.webhooks = webhooks;
    this.ajv.addSchema({ components: { schemas: components.schemas } }, DOCUMENT, undefined, false);
  }

  /** Compiles the schemas of these events (`issues.labeled`) now, so the first delivery is not the one that pays for it. */
  warm(events: string[]): void {
    for (const name of events) if (!this.schemaOf(name)) throw new Error(`GitHub publishes no webhook schema for ${name}`);
  }

  /** Registers a hook and pings it, as GitHub does when a webhook is created. */
  async register(input: HookInput): Promise<{ id: number; deliveries: DeliveryOutcome[] }> {
    const hook: Hook = {
      ...{ id: this.hooks.length + 1, url: input.url, secret: input.secret || null, events: input.events ?? ["*"] },
      ...{ owner: input.owner ?? null, repo: input.repo ?? null, createdAt: now() },
    };
    this.hooks.push(hook);
    const hookUrl = hook.owner ? `${api()}/repos/${hook.owner}/${hook.repo}/hooks/${hook.id}` : `${api()}/hooks/${hook.id}`;
    const view = {
      ...{ type: "Repository", id: hook.id, name: "web", active: true, events: hook.events },
      config: { content_type: "json", insecure_ssl: "0", url: hook.url, ...(hook.secret ? { secret: "********" } : {}) },
      ...{ updated_at: hook.createdAt, created_at: hook.createdAt, url: hookUrl, test_url: `${hookUrl}/test`, ping_url: `${hookUrl}/pings` },
      ...{ deliveries_url: `${hookUrl}/deliveries`, last_response: { code: null, status: "unused", message: null } },
    };
    const about = hook.owner && hook.repo ? { repository: repository(hook.owner, hook.repo), sender: user(hook.owner) } : {};
    const ping = { zen: "Keep it logically awesome.", hook_id: hook.id, hook: view, ...about };
    return { id: hook.id, deliveries: [await this.deliver(hook, "ping", ping, hook.owner ?? "", hook.repo ?? "")] };
  }

  /** Sends an event of a repository to every hook that hears it, one after another, and answers what each receiver said. */
  async announce(event: string, payload: { action: string } & Record<string, unknown>, owner: string, repo: string): Promise<DeliveryOutcome[]> {
    const hears = (hook: Hook) => (hook.owner === null || (hook.owner === owner && hook.repo === repo)) && (hook.events.includes("*") || hook.events.includes(event));
    const outcomes: DeliveryOutcome[] = [];
    for (const hook of this.hooks.filter(hears)) outcomes.push(await this.deliver(hook, event, payload, owner, repo));
    return outcomes;
  }

  /** GitHub's "Redeliver": the same body and headers, the same X-GitHub-Delivery GUID, recorded as a delivery of its own. */
  async redeliver(id: number): Promise<DeliveryOutcome | null> {
    const original = this.deliveries.find((d) => d.id === id);
    if (!original) return null;
    return this.send({ ...original, id: this.deliveries.length + 1, redelivery: true, status: 0, error: null, deliveredAt: now() });
  }

  private async deliver(hook: Hook, event: string, payload: Record<string, unknown>, owner: string, repo: string): Promise<DeliveryOutcome> {
    const action = typeof payload.action === "string" ? payload.action : null;
    const body = JSON.stringify(payload);
    const guid = randomUUID();
    const headers: Record<string, string> = {
      ...{ "content-type": "application/json", "user-agent": "GitHub-Hookshot/stand-in", "x-github-event": event, "x-github-delivery": guid },
      ...{ "x-github-hook-id": String(hook.id), "x-github-hook-installation-target-type": "repository" },
      ...(owner ? { "x-github-hook-installation-target-id": String(repository(owner, repo).id) } : {}),
      ...(hook.secret
        ? {
            // GitHub still sends the SHA-1 signature beside the SHA-256 one, for receivers that predate it.
            "x-hub-signature": `sha1=${createHmac("sha1", hook.secret).update(body).digest("hex")}`,
            "x-hub-signature-256": `sha256=${createHmac("sha256", hook.secret).update(body).digest("hex")}`,
          }
        : {}),
    };
    const delivery: Delivery = {
      id: this.deliveries.length + 1,
      guid,
      hookId: hook.id,
      event,
      action,
      url: hook.url,
      redelivery: false,
      headers,
      body,
      status: 0,
      error: null,
      deliveredAt: now(),
    };
    const name = action ? `${event}.${action}` : event;
    const validate = this.schemaOf(name);
    const errors = !validate
      ? [{ instancePath: "", keyword: "event", params: { name }, message: `GitHub publishes no webhook ${name}` }]
      : validate(payload)
        ? []
        : [...(validate.errors ?? [])];
    const outcome = await this.send(delivery);
    if (errors.length > 0) {
      this.report({
        ...{ method: "POST", path: hook.url, operationId: this.webhooks[webhookKey(name)]?.post.operationId ?? name, where: "webhook", status: delivery.status },
        errors: errors.map(({ instancePath, keyword, message, params }) => ({ instancePath, keyword, message, params })),
      });
    }
    return outcome;
  }

  private async send(delivery: Delivery): Promise<DeliveryOutcome> {
    this.deliveries.push(delivery);
    try {
      const response = await fetch(delivery.url, { method: "POST", headers: delivery.headers, body: delivery.body, signal: AbortSignal.timeout(TIMEOUT_MS) });
      delivery.status = response.status;
      await response.arrayBuffer();
    } catch (error) {
      delivery.error = error instanceof Error ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ""}` : String(error);
    }
    return { id: delivery.id, guid: delivery.guid, event: delivery.event, action: delivery.action, status: delivery.status };
  }

  /** The schema of an event's payload (`issues.labeled`, `ping`); undefined when GitHub publishes none. */
  private schemaOf(name: string): ValidateFunction | undefined {
    let validate = this.schemas.get(name);
    const ref = this.webhooks[webhookKey(name)]?.post.requestBody.content["application/json"]?.schema.$ref;
    if (!validate && ref) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT}${ref}` });
      this.schemas.set(name, validate);
    }
    return validate;
  }
}

/** The description names a webhook by its event and action in kebab case: `pull_request_review.submitted` is `pull-request-review-submitted`. */
function webhookKey(name: string): string {
  return name.replace(/[._]/g, "-");
}
