"use client";
// One message's line in the room: its performative, who it is to, and its body as text.
import { PerformativeBadge } from "../badges";
import type { Me, Message } from "../types";

/**
 * `badge`: the performative shows where it changes within a sender's group, not on every line. `onOpenThread`:
 * the room's stream shows a flight's message that stayed in it (one to a human) with a way into its thread.
 */
export function MessageBody({ message, me, badge, onOpenThread }: { message: Message; me: Me; badge: boolean; onOpenThread?: (flight: number) => void }) {
  const forMe = message.to === me.id || message.mentions.includes(me.id);
  const flight = message.flight;
  return (
    <div
      data-testid="message"
      data-seq={message.seq}
      data-flight={flight ?? undefined}
      className={`rounded px-2 py-0.5 ${forMe ? "bg-amber-50 ring-1 ring-amber-300 dark:bg-amber-950/40 dark:ring-amber-700" : ""}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        {badge && message.performative && <PerformativeBadge performative={message.performative} />}
        {message.toName && <span className="text-xs font-medium text-amber-800 dark:text-amber-300">direct to @{message.toName}</span>}
        {message.heldSeq != null && (
          <span className="text-xs text-neutral-500 dark:text-neutral-400" title="Posted with a hold token: nothing newer had arrived since the messages it was shown">
            sent over unread, seen up to #{message.heldSeq}
          </span>
        )}
        {onOpenThread && flight !== null && (
          <button
            type="button"
            data-testid="thread-link"
            className="text-xs text-accent-700 hover:underline dark:text-accent-500"
            title="Said to a person, so it shows here too: the rest of the flight's conversation is in its thread"
            onClick={() => onOpenThread(flight)}
          >
            in flight {flight}'s thread
          </button>
        )}
      </div>
      <p className="text-sm break-words whitespace-pre-wrap">{message.senderKind === "system" ? <WithQuotes text={message.body} /> : message.body}</p>
    </div>
  );
}

/**
 * Quorum's own messages repeat principals' words only inside “…” (domain/quoted-text.ts, which turns any
 * curly quote inside them plain): those spans are shown as quotes, so nobody reads them as Quorum's.
 */
function WithQuotes({ text }: { text: string }) {
  // Each part keyed by where it starts in the body.
  const parts: { part: string; key: number }[] = [];
  let at = 0;
  for (const part of text.split(/(“[^“”]*”)/)) {
    parts.push({ part, key: at });
    at += part.length;
  }
  return (
    <>
      {parts.map(({ part, key }) =>
        part.startsWith("“") && part.endsWith("”") ? (
          <q key={key} data-testid="quoted" className="rounded-sm bg-neutral-100 px-0.5 italic before:content-none after:content-none dark:bg-neutral-800">
            {part}
          </q>
        ) : (
          <span key={key}>{part}</span>
        ),
      )}
    </>
  );
}
