// The two relays the gates experiment compares. The gated one is Quorum's own post (domain/rooms/post-message.ts,
// whose gates are decided in SQL for every agent's post; the product has no switch to turn them off). The
// baseline is this experiment's own, and lives only here: it writes the same rows a post writes (the room's
// seq, the message, MessageSent and MessageDelivered; the rounds trigger fires as for any message) without
// asking the gate function anything. It is a control arm for a table, never a path an agent can reach.
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { Clock } from "../../domain/clock";
import { QuorumError } from "../../domain/errors";
import type { Principal } from "../../domain/principal";
import { parseMentions, postMessage } from "../../domain/rooms/post-message";

/** What became of a post: written with its seq, or refused (the error's code, the gate that refused, what the refusal handed back). */
export type PostOutcome = { ok: true; seq: number } | { ok: false; code: string; gate: string; retryAfterMs?: number };

/** The gate behind a refusal's code: the two-tier cap and lapping share the code `lapping`, and only the cap says `cap`. */
function gateOf(error: QuorumError): string {
  if (error.code === "lapping") return "cap" in error.extra ? "two-tier cap" : "lapping";
  return { rate_limited: "rate", duplicate: "duplicate", stale: "freshness" }[error.code] ?? error.code;
}

export interface Relay {
  /** As the table names it. */
  name: string;
  post(sender: Principal, room: string, body: string, clock: Clock): Promise<PostOutcome>;
}

/** Quorum's relay: every agent's post passes the five gates in quorum_post_message. */
export function gatedRelay(db: Db): Relay {
  return {
    name: "Quorum's relay (gates on)",
    async post(sender, room, body, clock) {
      try {
        return { ok: true, seq: (await postMessage(db, sender, room, { body }, clock)).seq };
      } catch (error) {
        if (!(error instanceof QuorumError)) throw error;
        return { ok: false, code: error.code, gate: gateOf(error), retryAfterMs: error.extra.retryAfterMs as number | undefined };
      }
    },
  };
}

/** The control arm: the same rows, written in one statement under the room's lock, with no gate asked. */
export function baselineRelay(db: Db): Relay {
  return {
    name: "baseline relay (no gates; this experiment's own)",
    async post(sender, room, body, clock) {
      const now = clock.now().toISOString();
      const mentions = parseMentions(body);
      const rows = await db.transaction(async (tx) => {
        const [locked] = await tx.execute<{ last_seq: number }>(sql`select last_seq from rooms where name = ${room} for update`);
        if (!locked) throw new Error(`no room named '${room}'`);
        const seq = Number(locked.last_seq) + 1;
        return tx.execute<{ seq: number }>(sql`
          with bump as (
            update rooms set last_seq = ${seq} where name = ${room}
          ), named as (
            select coalesce(array_agg(id), '{}'::uuid[]) as ids from principals where name = any(${sql.param(mentions)}::text[])
          ), msg as (
            insert into messages (room, seq, sender_id, body, mentions, created_at)
            select ${room}, ${seq}, ${sender.id}::uuid, ${body}, named.ids, ${now}::timestamptz from named
            returning id, seq, mentions
          ), sent as (
            insert into events (kind, actor, t, data)
            select 'MessageSent', ${sender.id}::uuid, ${now}::timestamptz,
                   jsonb_build_object('room', ${room}::text, 'seq', msg.seq, 'to', null, 'performative', null, 'body', ${body}::text,
                                      'mentions', to_jsonb(msg.mentions), 'heldSeq', null, 'messageId', msg.id)
            from msg returning id
          ), delivered as (
            insert into events (kind, actor, t, data)
            select 'MessageDelivered', ${sender.id}::uuid, ${now}::timestamptz,
                   jsonb_build_object('via', 'inbox', 'room', ${room}::text, 'seq', msg.seq, 'messageId', msg.id, 'performative', null,
                                      'recipients', r.ids, 'held', '[]'::jsonb, 'nudge', false)
            from msg, sent, (select coalesce(jsonb_agg(id), '[]'::jsonb) as ids from principals where kind = 'agent' and id <> ${sender.id}::uuid) r
            where jsonb_array_length(r.ids) > 0
          )
          select seq from msg`);
      });
      return { ok: true, seq: Number(rows[0].seq) };
    },
  };
}
