"use client";
// Each endpoint with its status (a disabled one as a warning), its recent deliveries, a test and a delete.
import { RelativeTime } from "../time";
import type { Webhook, WebhookDelivery } from "./types";
import { useRemoveWebhook, useTestWebhook } from "./use-webhooks";

const button = "rounded border border-neutral-300 px-2 py-0.5 text-xs hover:bg-neutral-100 disabled:opacity-50 dark:border-neutral-700 dark:hover:bg-neutral-800";

const DELIVERY_TONE: Record<WebhookDelivery["status"], string> = {
  delivered: "text-green-800 dark:text-green-300",
  pending: "text-amber-800 dark:text-amber-300",
  failed: "text-red-700 dark:text-red-300",
};

function Deliveries({ items }: { items: WebhookDelivery[] }) {
  if (items.length === 0) return <p className="mt-2 text-xs text-neutral-500 dark:text-neutral-400">No deliveries yet.</p>;
  return (
    <table className="mt-2 w-full text-left text-xs">
      <thead className="text-neutral-500 dark:text-neutral-400">
        <tr>
          <th className="py-1 font-medium">Type</th>
          <th className="py-1 font-medium">Status</th>
          <th className="py-1 font-medium">Attempts</th>
          <th className="py-1 font-medium">Last</th>
        </tr>
      </thead>
      <tbody>
        {items.map((d) => (
          <tr key={d.id} className="border-t border-neutral-100 dark:border-neutral-800" data-testid="webhook-delivery" data-status={d.status}>
            <td className="py-1 font-mono" title={d.id}>
              {d.type}
            </td>
            <td className={`py-1 ${DELIVERY_TONE[d.status]}`}>
              {d.status}
              {d.lastError && <span className="text-neutral-500 dark:text-neutral-400"> · {d.lastError}</span>}
              {d.nextAttemptAt && (
                <span className="text-neutral-500 dark:text-neutral-400">
                  {" "}
                  · next <RelativeTime iso={d.nextAttemptAt} />
                </span>
              )}
            </td>
            <td className="py-1 tabular-nums">{d.attempts}</td>
            <td className="py-1">{d.lastAttemptAt ? <RelativeTime iso={d.lastAttemptAt} /> : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function WebhookList({ items }: { items: Webhook[] }) {
  const remove = useRemoveWebhook();
  const test = useTestWebhook();
  if (items.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-neutral-300 p-4 text-sm text-neutral-600 dark:border-neutral-700 dark:text-neutral-300">
        No webhooks yet. Add one above to hear about escalations, reviews, stalled agents and more outside the browser.
      </p>
    );
  }
  return (
    <ul className="space-y-3" data-testid="webhooks">
      {items.map((w) => (
        <li key={w.id} className="rounded-lg border border-neutral-200 p-3 dark:border-neutral-800" data-testid="webhook" data-status={w.status}>
          {w.status === "disabled" && (
            <p role="alert" className="mb-2 rounded bg-red-50 px-2 py-1 text-xs text-red-800 dark:bg-red-950/50 dark:text-red-200">
              Disabled <RelativeTime iso={w.disabledAt!} />: every delivery failed for 24 hours. Fix the receiver, then send a test — a successful one turns it back on.
            </p>
          )}
          {w.status === "failing" && (
            <p className="mb-2 rounded bg-amber-50 px-2 py-1 text-xs text-amber-900 dark:bg-amber-950/50 dark:text-amber-100">
              Failing since <RelativeTime iso={w.failingSince!} />; retrying with backoff, disabled after 24 hours.
            </p>
          )}
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <p className="font-mono text-sm break-all">{w.url}</p>
              {w.description && <p className="text-xs text-neutral-600 dark:text-neutral-300">{w.description}</p>}
              <p className="mt-1 font-mono text-[11px] text-neutral-500 dark:text-neutral-400">{w.events.join(" · ")}</p>
            </div>
            <div className="flex shrink-0 gap-2">
              <button type="button" className={button} disabled={test.isPending} onClick={() => test.mutate(w.id)}>
                Send test
              </button>
              <button
                type="button"
                className={`${button} text-red-700 dark:text-red-300`}
                disabled={remove.isPending}
                onClick={() => window.confirm(`Remove the webhook to ${w.url}? It gets nothing more.`) && remove.mutate(w.id)}
              >
                Delete
              </button>
            </div>
          </div>
          <Deliveries items={w.deliveries} />
        </li>
      ))}
      {(test.isError || remove.isError) && (
        <p role="alert" className="text-xs text-red-600">
          {(test.error ?? remove.error)?.message}
        </p>
      )}
    </ul>
  );
}
