"use client";
// Each forge host with what may be shown of it (never its token: its last 4 characters), a token replacement and a
// removal, and its settings (./forge-settings.tsx).
import { type FormEvent, useState } from "react";
import { ServerError } from "../board/dialog";
import { RelativeTime } from "../time";
import { toast } from "../toast";
import { TokenField } from "./forge-form";
import { ForgeSettings } from "./forge-settings";
import type { ForgeHost } from "./types";
import { useRemoveForge, useReplaceForgeToken } from "./use-forges";

const button = "rounded border border-neutral-300 px-2 py-0.5 text-xs hover:bg-neutral-100 disabled:opacity-50 dark:border-neutral-700 dark:hover:bg-neutral-800";

const KIND_NAMES: Record<ForgeHost["kind"], string> = { github: "GitHub" };

function ReplaceToken({ forge, onDone }: { forge: ForgeHost; onDone: () => void }) {
  const replace = useReplaceForgeToken();
  const [token, setToken] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    replace.mutate(
      { id: forge.id, token: token.trim() },
      {
        onSuccess: () => {
          toast(`Replaced the token for ${forge.host}`);
          onDone();
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="mt-3 space-y-2 border-t border-neutral-100 pt-3 dark:border-neutral-800" aria-label={`Replace the token for ${forge.host}`}>
      <TokenField label="New token" value={token} onChange={setToken} before="Saving replaces the old token at once. " />
      <div className="flex gap-2">
        <button
          type="submit"
          disabled={replace.isPending || !token.trim()}
          className="rounded bg-accent-600 px-3 py-1 text-sm font-medium text-white hover:bg-accent-700 disabled:opacity-50"
        >
          {replace.isPending ? "Saving…" : "Save token"}
        </button>
        <button type="button" className={button} onClick={onDone}>
          Cancel
        </button>
      </div>
      <ServerError error={replace.error} />
    </form>
  );
}

function ForgeItem({ forge }: { forge: ForgeHost }) {
  const remove = useRemoveForge();
  const [replacing, setReplacing] = useState(false);
  const confirmRemoval = () => {
    if (!window.confirm(`Remove ${forge.host} and its token? Flights on its repositories then fetch and push without one.`)) return;
    remove.mutate(forge.id, { onSuccess: () => toast(`Removed ${forge.host}`) });
  };
  return (
    <li className="rounded-lg border border-neutral-200 p-3 dark:border-neutral-800" data-testid="forge">
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-sm break-all">{forge.host}</span>
            <span className="rounded bg-neutral-100 px-1.5 text-[11px] text-neutral-700 dark:bg-neutral-800 dark:text-neutral-200">{KIND_NAMES[forge.kind]}</span>
          </p>
          <p className="mt-1 text-xs text-neutral-600 dark:text-neutral-300">
            API <span className="font-mono break-all">{forge.apiUrl}</span>
          </p>
          <p className="mt-0.5 text-xs text-neutral-600 dark:text-neutral-300">
            token{" "}
            <span className="font-mono" data-testid="forge-token-ending">
              …{forge.tokenEnding}
            </span>{" "}
            · added by {forge.createdByName} <RelativeTime iso={forge.createdAt} className="" />
          </p>
        </div>
        <div className="flex shrink-0 gap-2">
          <button type="button" className={button} aria-expanded={replacing} onClick={() => setReplacing((now) => !now)}>
            Replace token
          </button>
          <button type="button" className={`${button} text-red-700 dark:text-red-300`} disabled={remove.isPending} onClick={confirmRemoval}>
            Remove
          </button>
        </div>
      </div>
      {replacing && <ReplaceToken forge={forge} onDone={() => setReplacing(false)} />}
      <ServerError error={remove.error} />
      <ForgeSettings forge={forge} />
    </li>
  );
}

export function ForgeList({ items }: { items: ForgeHost[] }) {
  if (items.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-neutral-300 p-4 text-sm text-neutral-600 dark:border-neutral-700 dark:text-neutral-300">
        No forges yet. Add one above to start flights on repositories at an https URL, on github.com or a GitHub Enterprise.
      </p>
    );
  }
  return (
    <ul className="space-y-3" data-testid="forges">
      {items.map((forge) => (
        <ForgeItem key={forge.id} forge={forge} />
      ))}
    </ul>
  );
}
