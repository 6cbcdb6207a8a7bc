"use client";
// A flight's thread as the room's stream shows it: the message that opened it (a launch's REQUEST, usually),
// how many replies followed, when the latest came, and the way in.
import type { ThreadSummary } from "@/domain/rooms/flight-threads";
import { Avatar } from "../avatar";
import { RelativeTime } from "../time";
import type { Me, Message } from "../types";
import { MessageBody } from "./message-body";

function repliesText(replies: number): string {
  if (replies === 0) return "No replies yet";
  return `${replies} ${replies === 1 ? "reply" : "replies"}`;
}

export function ThreadCard({ message, flight, thread, me, open, onOpen }: { message: Message; flight: number; thread: ThreadSummary; me: Me; open: boolean; onOpen: () => void }) {
  const replies = repliesText(thread.replies);
  return (
    <article
      data-testid="flight-thread-card"
      data-flight={flight}
      className={`flex gap-3 rounded-lg border p-3 ${open ? "border-accent-600 bg-neutral-50 dark:border-accent-500 dark:bg-neutral-900" : "border-neutral-200 dark:border-neutral-800"}`}
    >
      <Avatar id={message.senderId} name={message.senderName} kind={message.senderKind} />
      <div className="min-w-0 flex-1">
        <header className="flex flex-wrap items-baseline gap-2">
          <span className="text-sm font-semibold" data-testid="sender">
            {message.senderName}
          </span>
          <span className="rounded bg-neutral-100 px-1.5 py-0.5 text-xs font-medium text-neutral-800 dark:bg-neutral-800 dark:text-neutral-100">Flight {flight}</span>
          <RelativeTime iso={message.createdAt} />
        </header>
        <MessageBody message={message} me={me} badge />
        <footer className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 px-2 text-xs text-neutral-600 dark:text-neutral-300">
          <span data-testid="thread-replies">{replies}</span>
          {thread.replies > 0 && (
            <span>
              latest <RelativeTime iso={thread.lastActivityAt} className="text-xs" />
            </span>
          )}
          <button
            type="button"
            aria-label={`Open thread: flight ${flight}, ${replies.toLowerCase()}`}
            aria-expanded={open}
            onClick={onOpen}
            className="rounded border border-neutral-300 px-2 py-0.5 font-medium text-accent-700 hover:bg-neutral-100 dark:border-neutral-700 dark:text-accent-500 dark:hover:bg-neutral-800"
          >
            Open thread
          </button>
        </footer>
      </div>
    </article>
  );
}
