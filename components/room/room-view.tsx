"use client";
// The Room page: rooms on the left, the conversation in the middle, who is here on the right; a flight's
// thread opens beside the conversation (over it on a phone), named in the address (`?flight=3`).
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { Suspense, useCallback, useEffect, useRef, useState } from "react";
import { apiGet, apiPost, type ApiError } from "../api";
import { queryKeys } from "../query-keys";
import { usePrincipals } from "../use-principals";
import { useMe } from "../session";
import { useScrollRegion } from "../use-scroll-region";
import type { Page, Room } from "../types";
import { Composer } from "./composer";
import { GateStrip } from "./gate-strip";
import { MessageList } from "./message-list";
import { PresencePanel } from "./presence";
import { ScriptedTeamNote } from "./team-note";
import { FlightThread } from "./flight-thread";
import { NewFlightButton } from "../board/new-flight-button";

function NewRoom() {
  const [name, setName] = useState("");
  const create = useMutation<Room, ApiError, string>({
    mutationFn: (room) => apiPost<Room>("/api/rooms", { name: room }),
    onSuccess: () => setName(""),
  });
  return (
    <form
      className="mt-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) create.mutate(name.trim());
      }}
    >
      <label className="sr-only" htmlFor="new-room">
        New room name
      </label>
      <input
        id="new-room"
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="new-room"
        className="w-full rounded border border-neutral-300 bg-white px-2 py-1 text-xs dark:border-neutral-700 dark:bg-neutral-900"
      />
      {create.isError && <p className="mt-1 text-xs text-red-600">{create.error.message}</p>}
    </form>
  );
}

function RoomList({ room, rooms, human }: { room: string; rooms: Room[]; human: boolean }) {
  return (
    <>
      <h2 className="mb-2 text-xs font-semibold tracking-wide text-neutral-600 uppercase dark:text-neutral-300">Rooms</h2>
      <ul className="space-y-0.5 text-sm">
        {rooms.map((r) => (
          <li key={r.name}>
            <Link
              href={`/room/${r.name}`}
              aria-current={r.name === room ? "page" : undefined}
              className={`block rounded px-2 py-1 ${r.name === room ? "bg-neutral-200 font-medium dark:bg-neutral-800" : "hover:bg-neutral-100 dark:hover:bg-neutral-900"}`}
            >
              # {r.name}
            </Link>
          </li>
        ))}
      </ul>
      {human && <NewRoom />}
    </>
  );
}

/** Follows `?flight=N` in the address: a link (or Back) opens or closes a thread as the buttons do. */
function ThreadFromUrl({ onChange }: { onChange: (flight: number | null) => void }) {
  const raw = useSearchParams().get("flight");
  const flight = raw !== null && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
  useEffect(() => onChange(flight), [flight, onChange]);
  return null;
}

export function RoomView({ room }: { room: string }) {
  const me = useMe();
  const rooms = useQuery({ queryKey: queryKeys.rooms(), queryFn: () => apiGet<Page<Room>>("/api/rooms") });
  const people = usePrincipals().data?.items ?? [];
  // Below md the room is one column: the rooms and the people open from buttons in its header.
  const [panel, setPanel] = useState<"rooms" | "people" | null>(null);
  const conversation = useRef<HTMLElement>(null);
  const conversationTab = useScrollRegion(conversation);
  const router = useRouter();
  const pathname = usePathname();
  const [thread, setThread] = useState<number | null>(null);
  const openThread = useCallback(
    (flight: number) => {
      setThread(flight);
      router.push(`${pathname}?flight=${flight}`, { scroll: false });
    },
    [router, pathname],
  );
  const closeThread = useCallback(() => {
    setThread(null);
    router.replace(pathname, { scroll: false });
  }, [router, pathname]);
  if (!me.data) return null;
  const roomList = <RoomList room={room} rooms={rooms.data?.items ?? []} human={me.data.kind === "human"} />;
  const toggle = (which: "rooms" | "people") => setPanel(panel === which ? null : which);
  const tab = "rounded border border-neutral-300 px-2 py-0.5 text-xs font-medium dark:border-neutral-700";
  return (
    <div className="relative flex h-full">
      <Suspense fallback={null}>
        <ThreadFromUrl onChange={setThread} />
      </Suspense>
      <aside className="hidden w-44 shrink-0 border-r border-neutral-200 p-4 md:block dark:border-neutral-800">{roomList}</aside>
      <section className="relative flex min-w-0 flex-1 flex-col" aria-label={`Room ${room}`}>
        <div className="flex items-center gap-2 border-b border-neutral-200 px-3 py-2 md:px-6 dark:border-neutral-800">
          <h1 className="min-w-0 flex-1 truncate text-sm font-semibold"># {room}</h1>
          <NewFlightButton className={`${tab} border-accent-600 text-accent-700 dark:text-accent-500`} onStarted={(flight) => router.push(`/board/${flight.goalTask.number}`)} />
          <button type="button" className={`${tab} md:hidden`} aria-expanded={panel === "rooms"} onClick={() => toggle("rooms")}>
            Rooms
          </button>
          {/* With a thread open the people's column gives way to it, and opens from here at every width. */}
          <button type="button" className={`${tab} ${thread === null ? "lg:hidden" : ""}`} aria-expanded={panel === "people"} onClick={() => toggle("people")}>
            People
          </button>
        </div>
        {panel && (
          <div
            className="absolute inset-x-0 top-10 z-20 max-h-[70%] overflow-y-auto border-b border-neutral-200 bg-white p-4 shadow-lg dark:border-neutral-800 dark:bg-neutral-950"
            data-testid={`room-panel-${panel}`}
          >
            {panel === "rooms" ? (
              roomList
            ) : (
              <>
                <PresencePanel room={room} />
                <GateStrip room={room} />
              </>
            )}
          </div>
        )}
        <ScriptedTeamNote />
        <section ref={conversation} tabIndex={conversationTab} aria-label={`Conversation in #${room}`} className="min-h-0 flex-1 overflow-y-auto">
          <MessageList room={room} me={me.data} openThread={thread} onOpenThread={openThread} />
        </section>
        <Composer room={room} people={people} />
      </section>
      {thread !== null && <FlightThread key={thread} room={room} flight={thread} me={me.data} people={people} onClose={closeThread} />}
      <aside
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a busy hub's presence list overflows, and a keyboard scrolls a region only once it can take focus (axe: scrollable-region-focusable)
        tabIndex={0}
        aria-label="Who is here, and the relay's gates"
        className={`hidden w-64 shrink-0 overflow-y-auto border-l border-neutral-200 dark:border-neutral-800 ${thread === null ? "lg:block" : ""}`}
      >
        <PresencePanel room={room} />
        <GateStrip room={room} />
      </aside>
    </div>
  );
}
