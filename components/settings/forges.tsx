"use client";
// Settings → Forges: the hosts of remote repositories (github.com, a GitHub Enterprise) with the token the hub uses there.
import { useMe } from "../session";
import { ForgeForm } from "./forge-form";
import { ForgeList } from "./forge-list";
import { useForges } from "./use-forges";

export function Forges() {
  const me = useMe().data;
  const human = me?.kind === "human";
  const forges = useForges(human);
  return (
    <section aria-labelledby="forges-title" className="space-y-4">
      <div>
        <h2 id="forges-title" className="text-lg font-semibold">
          Forges
        </h2>
        <p className="mt-1 text-xs text-neutral-500 dark:text-neutral-400">
          Where remote repositories live. A flight on a repository&apos;s https URL fetches and pushes its branch with the token of its host; agents never see it.
        </p>
      </div>
      {me && !human && <p className="text-sm text-neutral-600 dark:text-neutral-300">Only humans manage forges.</p>}
      {forges.isPending && human && <div className="h-24 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-busy />}
      {forges.isError && <p className="text-sm text-red-600">Could not load forges: {forges.error.message}</p>}
      {forges.data && (
        <>
          <ForgeForm />
          <ForgeList items={forges.data.items} />
        </>
      )}
    </section>
  );
}
