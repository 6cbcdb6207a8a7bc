"use client";
// The room's messages, oldest at the top and newest at the bottom, grouped by sender: the room's stream, each
// flight's thread folded into one card, or one flight's thread on its own.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { RoomMessage } from "@/domain/rooms/list-messages";
import type { ThreadSummary } from "@/domain/rooms/flight-threads";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { Avatar } from "../avatar";
import { RelativeTime } from "../time";
import type { Me, Message, Page } from "../types";
import { MessageBody } from "./message-body";
import { ThreadCard } from "./thread-card";

const GROUP_GAP_MS = 5 * 60 * 1000;

/** The room's whole tail, every thread inline: who posted when, for the gate strip. */
export function useMessages(room: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.messages(room),
    queryFn: ({ pageParam }) => apiGet<Page<Message>>(`/api/rooms/${encodeURIComponent(room)}/messages?limit=100${pageParam ? `&before=${pageParam}` : ""}`),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next,
  });
}

/** The room's stream with each flight's thread folded (`flight` null), or that flight's thread. */
export function useRoomMessages(room: string, flight: number | null) {
  const path = `/api/rooms/${encodeURIComponent(room)}/messages?limit=100&${flight === null ? "threads=folded" : `flight=${flight}`}`;
  return useInfiniteQuery({
    queryKey: flight === null ? queryKeys.roomStream(room) : queryKeys.flightThread(room, flight),
    queryFn: ({ pageParam }) => apiGet<Page<RoomMessage>>(`${path}${pageParam ? `&before=${pageParam}` : ""}`),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next,
  });
}

type Block = { kind: "group"; messages: RoomMessage[] } | { kind: "thread"; message: RoomMessage; flight: number; thread: ThreadSummary };

/** A sender's messages within a few minutes of each other go under one name; a folded thread stands alone. */
function blocksOf(messages: RoomMessage[]): Block[] {
  const blocks: Block[] = [];
  for (const message of messages) {
    if (message.thread && message.flight !== null) {
      blocks.push({ kind: "thread", message, flight: message.flight, thread: message.thread });
      continue;
    }
    const group = blocks.at(-1);
    const last = group?.kind === "group" ? group.messages.at(-1) : undefined;
    if (group?.kind === "group" && last && last.senderId === message.senderId && Date.parse(message.createdAt) - Date.parse(last.createdAt) < GROUP_GAP_MS) {
      group.messages.push(message);
    } else {
      blocks.push({ kind: "group", messages: [message] });
    }
  }
  return blocks;
}

/**
 * `flight` null: the room's stream, where `onOpenThread` opens a folded thread (`openThread` is the one open).
 * A number: that flight's thread.
 */
export function MessageList({
  room,
  me,
  flight = null,
  openThread = null,
  onOpenThread,
}: {
  room: string;
  me: Me;
  flight?: number | null;
  openThread?: number | null;
  onOpenThread?: (flight: number) => void;
}) {
  const query = useRoomMessages(room, flight);
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
      <p className="p-6 text-sm text-neutral-500 dark:text-neutral-400">
        {flight === null
          ? `No messages in #${room} yet. Say something below, or start the demo team — agents post here as they work.`
          : `Nothing in flight ${flight}'s thread in #${room} yet: the team's messages about its tasks gather here.`}
      </p>
    );
  }
  const inStream = flight === null;
  return (
    <div
      className="space-y-3 px-3 py-4 md:px-6"
      role="log"
      aria-live="polite"
      aria-label={inStream ? `Messages in ${room}` : `Flight ${flight}'s thread`}
      data-testid={inStream ? "room-stream" : "thread-messages"}
    >
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
      {blocksOf(messages).map((block) => {
        if (block.kind === "thread") {
          const { message, flight: number, thread } = block;
          return <ThreadCard key={message.id} message={message} flight={number} thread={thread} me={me} open={openThread === number} onOpen={() => onOpenThread?.(number)} />;
        }
        const first = block.messages[0];
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
              {block.messages.map((message, i) => (
                <MessageBody
                  key={message.id}
                  message={message}
                  me={me}
                  badge={i === 0 || block.messages[i - 1].performative !== message.performative}
                  onOpenThread={inStream ? onOpenThread : undefined}
                />
              ))}
            </div>
          </article>
        );
      })}
      <div ref={bottom} />
    </div>
  );
}
