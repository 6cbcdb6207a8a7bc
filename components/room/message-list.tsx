"use client";
// The room's messages, oldest at the top and newest at the bottom, grouped by sender.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { Avatar } from "../avatar";
import { PerformativeBadge } from "../badges";
import { RelativeTime } from "../time";
import type { Me, Message, Page } from "../types";

const GROUP_GAP_MS = 5 * 60 * 1000;

export function useMessages(room: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.messages(room),
    queryFn: ({ pageParam }) => apiGet<Page<Message>>(`/api/rooms/${encodeURIComponent(room)}/messages?limit=100${pageParam ? `&before=${pageParam}` : ""}`),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next,
  });
}

/** `badge`: the performative shows where it changes within a sender's group, not on every line. */
function MessageBody({ message, me, badge }: { message: Message; me: Me; badge: boolean }) {
  const forMe = message.to === me.id || message.mentions.includes(me.id);
  return (
    <div
      data-testid="message"
      data-seq={message.seq}
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

export function MessageList({ room, me }: { room: string; me: Me }) {
  const query = useMessages(room);
  const bottom = useRef<HTMLDivElement>(null);
  const messages = (query.data?.pages ?? []).toReversed().flatMap((page) => page.items);
  const newest = messages.at(-1)?.seq;
  // Follow the conversation: scroll to the bottom when a newer message arrives (not when earlier pages load).
  useEffect(() => {
    if (newest === undefined) return;
    bottom.current?.scrollIntoView({ block: "end" });
  }, [newest]);

  if (query.isPending) {
    return (
      <div className="space-y-4 p-6" aria-busy>
        {[0, 1, 2].map((i) => (
          <div key={i} className="h-10 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" />
        ))}
      </div>
    );
  }
  if (query.isError) return <p className="p-6 text-sm text-red-600">Could not load messages: {query.error.message}</p>;
  if (messages.length === 0) {
    return (
      <p className="p-6 text-sm text-neutral-500 dark:text-neutral-400">No messages in #{room} yet. Say something below, or start the demo team — agents post here as they work.</p>
    );
  }
  const groups: Message[][] = [];
  for (const message of messages) {
    const last = groups.at(-1)?.at(-1);
    if (last && last.senderId === message.senderId && Date.parse(message.createdAt) - Date.parse(last.createdAt) < GROUP_GAP_MS) {
      groups.at(-1)!.push(message);
    } else {
      groups.push([message]);
    }
  }
  return (
    <div className="space-y-3 px-3 py-4 md:px-6" role="log" aria-live="polite" aria-label={`Messages in ${room}`}>
      {query.hasNextPage && (
        <button
          type="button"
          className="mx-auto block rounded border border-neutral-300 px-3 py-1 text-xs hover:bg-neutral-100 dark:border-neutral-700 dark:hover:bg-neutral-900"
          onClick={() => query.fetchNextPage()}
          disabled={query.isFetchingNextPage}
        >
          {query.isFetchingNextPage ? "Loading…" : "Load earlier messages"}
        </button>
      )}
      {groups.map((group) => {
        const first = group[0];
        return (
          <article key={first.id} className="flex gap-3">
            <Avatar id={first.senderId} name={first.senderName} kind={first.senderKind} />
            <div className="min-w-0 flex-1">
              <header className="flex items-baseline gap-2">
                <span className="text-sm font-semibold" data-testid="sender">
                  {first.senderName}
                </span>
                <RelativeTime iso={first.createdAt} />
              </header>
              {group.map((message, i) => (
                <MessageBody key={message.id} message={message} me={me} badge={i === 0 || group[i - 1].performative !== message.performative} />
              ))}
            </div>
          </article>
        );
      })}
      <div ref={bottom} />
    </div>
  );
}
