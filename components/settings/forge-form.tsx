"use client";
// Connect a forge: its host, its REST API's URL (prefilled from the host until a human edits it) and its token.
import { type FormEvent, useId, useState } from "react";
import { ServerError } from "../board/dialog";
import { toast } from "../toast";
import { useAddForge } from "./use-forges";

/** The webhooks' fields' look, beside which these sit. */
export const fieldClass = "w-full rounded border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-900";

/** What the page promises of every token it takes; said under each token field. */
export const TOKEN_PROMISE =
  "The token is stored on this hub and used only to reach this forge. It is never shown again, nor to any agent, and it is scrubbed from every tool's output and the journal.";

/**
 * The API URL the hub takes for a host when none is given (domain/forges/hosts.ts decides it; this only prefills
 * the field so a human sees it): GitHub's own for github.com, GitHub Enterprise's path anywhere else.
 */
function suggestedApiUrl(host: string): string {
  const name = host.trim().toLowerCase();
  if (!name) return "";
  return name === "github.com" ? "https://api.github.com" : `https://${name}/api/v3`;
}

/** A token's field with what the hub promises about it beneath: adding a forge and replacing its token say the same. */
export function TokenField({ label, value, onChange, before = "" }: { label: string; value: string; onChange: (token: string) => void; before?: string }) {
  const promiseId = useId();
  return (
    <>
      <label className="block text-xs font-medium">
        {label}
        <input
          className={`${fieldClass} mt-1 font-mono`}
          type="password"
          required
          minLength={8}
          autoComplete="new-password"
          spellCheck={false}
          aria-describedby={promiseId}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
      <p id={promiseId} className="text-xs text-neutral-600 dark:text-neutral-300">
        {before}
        {TOKEN_PROMISE}
      </p>
    </>
  );
}

export function ForgeForm() {
  const add = useAddForge();
  const [host, setHost] = useState("");
  // Null while the field follows the host; a human's own URL once they edit it.
  const [apiUrl, setApiUrl] = useState<string | null>(null);
  const [token, setToken] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(
      { host: host.trim(), apiUrl: apiUrl?.trim() || undefined, token: token.trim() },
      {
        onSuccess: (forge) => {
          setHost("");
          setApiUrl(null);
          setToken("");
          toast(`Connected ${forge.host}`);
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="space-y-2 rounded-lg border border-neutral-200 p-3 dark:border-neutral-800" aria-label="Add a forge">
      <div className="grid gap-2 sm:grid-cols-2">
        <label className="block text-xs font-medium">
          Host
          <input
            className={`${fieldClass} mt-1 font-mono`}
            required
            placeholder="github.com"
            autoCapitalize="none"
            autoComplete="off"
            spellCheck={false}
            value={host}
            onChange={(e) => setHost(e.target.value)}
          />
        </label>
        <label className="block text-xs font-medium">
          API URL
          <input
            className={`${fieldClass} mt-1 font-mono`}
            type="url"
            placeholder="https://api.github.com"
            autoComplete="off"
            spellCheck={false}
            value={apiUrl ?? suggestedApiUrl(host)}
            onChange={(e) => setApiUrl(e.target.value)}
          />
        </label>
      </div>
      <TokenField label="Token" value={token} onChange={setToken} />
      <button
        type="submit"
        disabled={add.isPending || !host.trim() || !token.trim()}
        className="rounded bg-accent-600 px-3 py-1 text-sm font-medium text-white hover:bg-accent-700 disabled:opacity-50"
      >
        {add.isPending ? "Adding…" : "Add forge"}
      </button>
      <ServerError error={add.error} />
    </form>
  );
}
