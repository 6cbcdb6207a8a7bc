"use client";
// Add a webhook endpoint: its URL, the event types it wants, a note; the secret is shown once after.
import { type FormEvent, useState } from "react";
import type { AddedWebhook } from "./types";
import { useAddWebhook } from "./use-webhooks";

const input = "w-full rounded border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-900";

export function WebhookForm({ eventTypes }: { eventTypes: readonly string[] }) {
  const add = useAddWebhook();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>([]);
  const [description, setDescription] = useState("");
  const [added, setAdded] = useState<AddedWebhook | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(
      { url, events, description: description || undefined },
      {
        onSuccess: (webhook) => {
          setAdded(webhook);
          setUrl("");
          setEvents([]);
          setDescription("");
        },
      },
    );
  };
  const toggle = (type: string) => setEvents((now) => (now.includes(type) ? now.filter((t) => t !== type) : [...now, type]));
  return (
    <div className="space-y-3">
      <form onSubmit={submit} className="space-y-2 rounded-lg border border-neutral-200 p-3 dark:border-neutral-800" aria-label="Add a webhook">
        <label className="block text-xs font-medium">
          Endpoint URL
          <input className={`${input} mt-1`} type="url" required placeholder="https://example.com/quorum-hooks" value={url} onChange={(e) => setUrl(e.target.value)} />
        </label>
        <fieldset>
          <legend className="text-xs font-medium">Events</legend>
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {eventTypes.map((type) => (
              <label key={type} className="flex items-center gap-1 font-mono text-xs">
                <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} />
                {type}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="block text-xs font-medium">
          Description (optional)
          <input className={`${input} mt-1`} maxLength={200} value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <div className="flex items-center gap-3">
          <button
            type="submit"
            disabled={add.isPending || events.length === 0 || !url}
            className="rounded bg-accent-600 px-3 py-1 text-sm font-medium text-white hover:bg-accent-700 disabled:opacity-50"
          >
            Add webhook
          </button>
          {add.isError && (
            <p role="alert" className="text-xs text-red-600">
              {add.error.message}
            </p>
          )}
        </div>
      </form>
      {added && (
        <div role="status" data-testid="webhook-secret" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950/40">
          <p className="font-medium">Signing secret for {added.url} — shown only now.</p>
          <p className="mt-1 text-xs">Give it to the receiver to verify each request&apos;s webhook-signature (Standard Webhooks).</p>
          <code className="mt-2 block rounded bg-white px-2 py-1 font-mono text-xs break-all select-all dark:bg-neutral-900">{added.secret}</code>
          <button type="button" className="mt-2 text-xs underline" onClick={() => setAdded(null)}>
            I have stored it
          </button>
        </div>
      )}
    </div>
  );
}
