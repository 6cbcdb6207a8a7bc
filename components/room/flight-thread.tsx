"use client";
// One flight's thread beside the room's stream (a side panel on a wide screen, the whole room on a phone):
// the flight's goal and stage, its messages live, and a reply that stays in the thread.
import Link from "next/link";
import { useRef } from "react";
import { useFlights } from "../board/use-flights";
import { useFocusWhen } from "../use-focus-when";
import { useScrollRegion } from "../use-scroll-region";
import type { Me, RosterEntry } from "../types";
import { Composer } from "./composer";
import { MessageList, useRoomMessages } from "./message-list";

export function FlightThread({ room, flight, me, people, onClose }: { room: string; flight: number; me: Me; people: RosterEntry[]; onClose: () => void }) {
  const info = useFlights().data?.items.find((f) => f.number === flight);
  const first = useRoomMessages(room, flight).data?.pages.at(-1)?.items[0];
  // A reply is about the flight's goal; a flight older than the newest listed is known by its thread's first task.
  const replyTask = info?.goalTask.id ?? first?.taskId ?? null;
  const heading = useFocusWhen<HTMLHeadingElement>(true);
  const scroller = useRef<HTMLElement>(null);
  const scrollTab = useScrollRegion(scroller);
  const button = "rounded border border-neutral-300 px-2 py-0.5 text-xs font-medium dark:border-neutral-700";
  return (
    <section
      aria-label={`Flight ${flight}'s thread`}
      data-testid="flight-thread"
      data-flight={flight}
      onKeyDown={(e) => {
        if (e.key === "Escape") onClose();
      }}
      className="absolute inset-0 z-30 flex flex-col bg-white lg:static lg:z-auto lg:w-[26rem] lg:shrink-0 lg:border-l lg:border-neutral-200 dark:bg-neutral-950 lg:dark:border-neutral-800"
    >
      <header className="flex items-start gap-2 border-b border-neutral-200 px-3 py-2 dark:border-neutral-800">
        <button type="button" className={`${button} lg:hidden`} onClick={onClose}>
          ← #{room}
        </button>
        <div className="min-w-0 flex-1">
          <h2 ref={heading} tabIndex={-1} className="text-sm font-semibold outline-none">
            Flight {flight}'s thread
          </h2>
          {info && (
            <>
              <p className="truncate text-xs text-neutral-700 dark:text-neutral-200" title={info.goal}>
                {info.goal}
              </p>
              <p className="text-xs text-neutral-600 dark:text-neutral-300">
                <span data-testid="thread-stage">{info.stageWords}</span> ·{" "}
                <Link href={`/board/${info.goalTask.number}`} className="text-accent-700 hover:underline dark:text-accent-500">
                  goal #{info.goalTask.number}
                </Link>
              </p>
            </>
          )}
        </div>
        <button type="button" className={`${button} hidden lg:block`} onClick={onClose} aria-label={`Close flight ${flight}'s thread`}>
          Close
        </button>
      </header>
      <section ref={scroller} tabIndex={scrollTab} aria-label={`Messages of flight ${flight}`} className="min-h-0 flex-1 overflow-y-auto">
        <MessageList room={room} me={me} flight={flight} />
      </section>
      {replyTask && <Composer room={room} people={people} thread={{ taskId: replyTask, label: `Reply in flight ${flight}'s thread` }} />}
    </section>
  );
}
