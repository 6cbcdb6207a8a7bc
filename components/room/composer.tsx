"use client";
// Write to the room: Enter sends, Shift-Enter breaks the line, @ completes a name.
import { useMutation } from "@tanstack/react-query";
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { apiPost, type ApiError } from "../api";
import type { RosterEntry } from "../types";

function mentionPrefix(text: string, caret: number): string | null {
  const match = /(?:^|\s)@([A-Za-z0-9_.-]*)$/.exec(text.slice(0, caret));
  return match ? match[1] : null;
}

/**
 * `thread`: a reply in a flight's thread, posted about `taskId` (a task of that flight), so it lands in the
 * thread; `label` names where it goes. Without it, a message to the room's stream.
 */
export function Composer({ room, people, thread }: { room: string; people: RosterEntry[]; thread?: { taskId: string; label: string } }) {
  const [text, setText] = useState("");
  const [caret, setCaret] = useState(0);
  const [pick, setPick] = useState(0);
  const input = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const inputId = useId();
  const label = thread?.label ?? `Message #${room}`;
  const send = useMutation<unknown, ApiError, string>({
    mutationFn: (body) => apiPost(`/api/rooms/${encodeURIComponent(room)}/messages`, thread ? { body, taskId: thread.taskId } : { body }),
    onSuccess: () => setText(""),
  });

  const prefix = mentionPrefix(text, caret);
  const suggestions = prefix === null ? [] : people.filter((p) => p.name.toLowerCase().startsWith(prefix.toLowerCase())).slice(0, 6);
  const picked = Math.min(pick, suggestions.length - 1);
  const optionId = (i: number) => `${listId}-${i}`;

  function complete(name: string) {
    const before = text.slice(0, caret).replace(/@([A-Za-z0-9_.-]*)$/, `@${name} `);
    const next = before + text.slice(caret);
    setText(next);
    setCaret(before.length);
    requestAnimationFrame(() => input.current?.setSelectionRange(before.length, before.length));
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (suggestions.length > 0 && (event.key === "Tab" || (event.key === "Enter" && !event.shiftKey))) {
      event.preventDefault();
      complete(suggestions[picked].name);
      return;
    }
    if (suggestions.length > 0 && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      event.preventDefault();
      setPick((p) => (p + (event.key === "ArrowDown" ? 1 : suggestions.length - 1)) % suggestions.length);
      return;
    }
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      if (text.trim() && !send.isPending) send.mutate(text);
    }
  }

  return (
    <div className="relative border-t border-neutral-200 p-3 md:p-4 dark:border-neutral-800">
      {suggestions.length > 0 && (
        // The textarea keeps the focus and the keys (arrows pick, Enter or Tab complete); a click picks too.
        <div
          id={listId}
          role="listbox"
          aria-label="Mention"
          className="absolute bottom-full left-4 mb-1 w-56 rounded-md border border-neutral-200 bg-white py-1 text-sm shadow-lg dark:border-neutral-700 dark:bg-neutral-900"
        >
          {suggestions.map((person, i) => (
            <div
              key={person.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === picked}
              tabIndex={-1}
              className={`w-full px-3 py-1 text-left ${i === picked ? "bg-accent-600 text-white" : ""}`}
              onMouseDown={(e) => {
                e.preventDefault();
                complete(person.name);
              }}
            >
              @{person.name} <span className="opacity-70">{person.role ?? person.kind}</span>
            </div>
          ))}
        </div>
      )}
      <label htmlFor={inputId} className="sr-only">
        {label}
      </label>
      <textarea
        id={inputId}
        ref={input}
        aria-controls={suggestions.length > 0 ? listId : undefined}
        aria-activedescendant={suggestions.length > 0 ? optionId(picked) : undefined}
        rows={2}
        value={text}
        placeholder={`${label} — Enter to send, Shift-Enter for a new line, @ to mention`}
        onChange={(e) => {
          setText(e.target.value);
          setCaret(e.target.selectionStart);
          setPick(0);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        className="w-full resize-none rounded-md border border-neutral-300 bg-white px-3 py-2 text-sm dark:border-neutral-700 dark:bg-neutral-900"
      />
      {send.isError && (
        <p role="alert" className="mt-1 text-xs text-red-600">
          Not sent: {send.error.message}
        </p>
      )}
    </div>
  );
}
