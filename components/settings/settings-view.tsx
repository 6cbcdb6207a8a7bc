"use client";
// The Settings page: the people who work here (invitations, removal), the webhooks that tell people outside
// the browser what waits for them, the forges whose repositories flights work on, and the Lab, where the
// experiments run on this hub are kept.
import Link from "next/link";
import { useMe } from "../session";
import { Forges } from "./forges";
import { People } from "./people";
import { useWebhooks } from "./use-webhooks";
import { WebhookForm } from "./webhook-form";
import { WebhookList } from "./webhook-list";

export function SettingsView() {
  const me = useMe().data;
  const human = me?.kind === "human";
  const webhooks = useWebhooks(human);
  return (
    <div className="space-y-8">
      <h1 className="sr-only">Settings</h1>
      {human && <People />}
      <section aria-labelledby="webhooks-title" className="space-y-4">
        <div>
          <h2 id="webhooks-title" className="text-lg font-semibold">
            Webhooks
          </h2>
          <p className="mt-1 text-xs text-neutral-500 dark:text-neutral-400">
            Signed POSTs (Standard Webhooks) when an escalation opens or resolves, a review waits for a human, a budget runs out, a lease expires, an agent stalls or a decision
            resolves. Failures retry with the same webhook-id for up to 24 hours.
          </p>
        </div>
        {me && !human && <p className="text-sm text-neutral-600 dark:text-neutral-300">Only humans manage webhooks.</p>}
        {webhooks.isPending && human && <div className="h-24 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-busy />}
        {webhooks.isError && <p className="text-sm text-red-600">Could not load webhooks: {webhooks.error.message}</p>}
        {webhooks.data && (
          <>
            <WebhookForm eventTypes={webhooks.data.eventTypes} />
            <WebhookList items={webhooks.data.items} />
          </>
        )}
      </section>
      <Forges />
      <Lab />
    </div>
  );
}

/** The Lab: the harness measured by the seeds' experiments, which are no part of the daily work and so not in the rail. */
function Lab() {
  return (
    <section aria-labelledby="lab-title" className="space-y-2">
      <h2 id="lab-title" className="text-lg font-semibold">
        Lab
      </h2>
      <p className="text-xs text-neutral-500 dark:text-neutral-400">
        Experiments measure Quorum itself (coordination, gates, reflection) on a scratch database of their own, never this hub&apos;s. You run them from Quorum&apos;s folder with{" "}
        <code className="font-mono">npm run quorum -- experiment NAME</code>; the tables of the ones run on this hub are kept here.
      </p>
      <Link href="/experiments" className="inline-block text-sm text-accent-600 hover:underline dark:text-accent-500">
        Experiments <span aria-hidden="true">→</span>
      </Link>
    </section>
  );
}

/** The rail's warning beside Settings: endpoints disabled after 24 h of failures. */
export function DisabledWebhooksBadge() {
  const human = useMe().data?.kind === "human";
  const disabled = useWebhooks(human).data?.items.filter((w) => w.status === "disabled").length ?? 0;
  if (disabled === 0) return null;
  return (
    <>
      <span data-testid="webhook-badge" className="ml-auto rounded-full bg-red-600 px-1.5 text-[11px] font-semibold text-white tabular-nums" aria-hidden="true">
        {disabled}
      </span>
      <span className="sr-only">{disabled === 1 ? "1 webhook disabled" : `${disabled} webhooks disabled`}</span>
    </>
  );
}
