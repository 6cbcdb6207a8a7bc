// A server stand-in for the webhook kill test: it journals an escalation (committing its outbox row),
// says "committed", then either runs its deliverer (the receiver never answers, so the test's SIGKILL
// lands mid-attempt) or waits to be killed before delivering at all.
import { createInterface } from "node:readline";
import { connect } from "../../db/client";
import { systemClock } from "../../domain/clock";
import { appendEvent } from "../../domain/journal/append";
import { LOCAL_RECEIVER } from "../fixtures/webhook-receiver";
import { deliverWebhooks } from "../../domain/webhooks/deliver";

const connection = connect(process.env.DATABASE_URL!, { max: 2 });
await connection.sql`select 1`;
process.stdout.write("ready\n");
const lines = createInterface({ input: process.stdin });
const line = await new Promise<string>((resolve) => lines.once("line", resolve));
const orders = JSON.parse(line) as { number: number; deliver: boolean };
const now = systemClock.now();
await connection.db.transaction(async (tx) => {
  await appendEvent(tx, {
    kind: "DecisionEscalated",
    t: now,
    data: {
      decisionId: "00000000-0000-4000-8000-000000000019",
      number: orders.number,
      reason: "tie",
      tally: [],
      envelope: "Q: which?",
      escalationDeadline: now.toISOString(),
      room: "general",
    },
  });
});
process.stdout.write("committed\n");
if (orders.deliver) await deliverWebhooks(connection.db, systemClock, LOCAL_RECEIVER);
// Waits for the kill (the test never lets it get here with a delivery done).
await new Promise(() => {});
