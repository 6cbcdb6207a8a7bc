"use client";
// Every action answers: a short toast after it lands (a polite live region), gone after a few seconds.
import { useSyncExternalStore } from "react";

interface Toast {
  id: number;
  text: string;
}

const SHOWN_MS = 5_000;
let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function changed() {
  for (const listener of listeners) listener();
}

export function toast(text: string): void {
  const id = nextId++;
  toasts = [...toasts, { id, text }];
  changed();
  setTimeout(() => {
    toasts = toasts.filter((t) => t.id !== id);
    changed();
  }, SHOWN_MS);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const none: Toast[] = [];

export function Toasts() {
  const shown = useSyncExternalStore(
    subscribe,
    () => toasts,
    () => none,
  );
  return (
    <div role="status" aria-live="polite" className="pointer-events-none fixed right-3 bottom-3 z-50 flex max-w-[calc(100vw-1.5rem)] flex-col items-end gap-2">
      {shown.map((t) => (
        <p key={t.id} data-testid="toast" className="rounded-md bg-neutral-900 px-3 py-2 text-sm text-white shadow-lg dark:bg-neutral-100 dark:text-neutral-900">
          {t.text}
        </p>
      ))}
    </div>
  );
}
