"use client";
// The Room page: rooms on the left, the conversation in the middle, who is here on the right.
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { apiGet, apiPost, type ApiError } from "../api";
import { queryKeys } from "../query-keys";
import { usePrincipals } from "../shell";
import { useMe } from "../session";
import type { Page, Room } from "../types";
import { Composer } from "./composer";
import { GateStrip } from "./gate-strip";
import { MessageList } from "./message-list";
import { PresencePanel } from "./presence";

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

export function RoomView({ room }: { room: string }) {
  const me = useMe();
  const rooms = useQuery({ queryKey: queryKeys.rooms(), queryFn: () => apiGet<Page<Room>>("/api/rooms") });
  const people = usePrincipals().data?.items ?? [];
  if (!me.data) return null;
  return (
    <div className="flex h-full">
      <aside className="w-44 shrink-0 border-r border-neutral-200 p-4 dark:border-neutral-800">
        <h2 className="mb-2 text-xs font-semibold tracking-wide text-neutral-500 uppercase dark:text-neutral-400">Rooms</h2>
        <ul className="space-y-0.5 text-sm">
          {(rooms.data?.items ?? []).map((r) => (
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
        {me.data.kind === "human" && <NewRoom />}
      </aside>
      <section className="flex min-w-0 flex-1 flex-col" aria-label={`Room ${room}`}>
        <h1 className="border-b border-neutral-200 px-6 py-2 text-sm font-semibold dark:border-neutral-800"># {room}</h1>
        <div className="min-h-0 flex-1 overflow-y-auto">
          <MessageList room={room} me={me.data} />
        </div>
        <Composer room={room} people={people} />
      </section>
      <aside className="hidden w-64 shrink-0 overflow-y-auto border-l border-neutral-200 lg:block dark:border-neutral-800">
        <PresencePanel room={room} />
        <GateStrip room={room} />
      </aside>
    </div>
  );
}
