// `quorum webhook add URL --events a,b [--description TEXT] | list | remove ID | test ID`: the operator
// manages webhooks from the hub's machine, acting as the local human (QUORUM_HUMAN or the OS user).
import { parseArgs } from "node:util";
import type { Db } from "../db/client";
import { WEBHOOK_EVENT_TYPES } from "../db/schema";
import { systemClock } from "../domain/clock";
import { ensureHuman } from "../domain/principals/create-principal";
import { addWebhook, addWebhookInput, listWebhooks, queueTestDelivery, removeWebhook } from "../domain/webhooks/manage";
import { localHumanName, withConnection } from "./database";

export const WEBHOOK_USAGE = `  quorum webhook add URL --events TYPE,TYPE [--description TEXT]
                                        send signed webhooks to URL (types: ${WEBHOOK_EVENT_TYPES.join(", ")}); prints its secret once
  quorum webhook list | remove ID | test ID`;

/** Runs one webhook command against `db`; returns the exit code. */
export async function webhookCommand(db: Db, argv: string[], print: (line: string) => void = console.log): Promise<number> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { events: { type: "string" }, description: { type: "string" } } });
  const [sub, arg] = positionals;
  const human = await ensureHuman(db, localHumanName(), systemClock);
  if (sub === "add" && arg) {
    const parsed = addWebhookInput.safeParse({ url: arg, events: (values.events ?? "").split(",").filter(Boolean), description: values.description });
    if (!parsed.success) {
      print(`quorum: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}\n${WEBHOOK_USAGE}`);
      return 1;
    }
    const added = await addWebhook(db, human, parsed.data, systemClock);
    print(`Webhook ${added.id} → ${added.url} (${added.events.join(", ")}).`);
    print(`Its signing secret, shown only now — give it to the receiver to verify webhook-signature:\n\n    ${added.secret}\n`);
    return 0;
  }
  if (sub === "list") {
    const { items } = await listWebhooks(db, human);
    if (items.length === 0) print("No webhooks.");
    for (const hook of items) {
      const last = hook.deliveries[0];
      const lastLine = last ? `last: ${last.type} ${last.status}${last.lastError ? ` (${last.lastError})` : ""}` : "no deliveries yet";
      print(`${hook.id}  ${hook.status}  ${hook.url}  [${hook.events.join(", ")}]  ${lastLine}`);
    }
    return 0;
  }
  if (sub === "remove" && arg) {
    await removeWebhook(db, human, arg, systemClock);
    print(`Webhook ${arg} removed.`);
    return 0;
  }
  if (sub === "test" && arg) {
    const { deliveryId } = await queueTestDelivery(db, human, arg, systemClock);
    print(`Test delivery ${deliveryId} queued; a running Quorum sends it within seconds (see \`quorum webhook list\`).`);
    return 0;
  }
  print(`usage:\n${WEBHOOK_USAGE}`);
  return 1;
}

/** The CLI's entry: opens the database, runs the command. */
export function webhookMain(argv: string[]): Promise<number> {
  return withConnection(({ db }) => webhookCommand(db, argv));
}
