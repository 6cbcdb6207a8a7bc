"use client";
// A human rotates or revokes an agent's keys, each after a confirm step; a rotated key is shown once, with a copy button.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { apiDelete, apiPost, type ApiError } from "../api";
import type { IssuedKey } from "./types";

type Confirming = "rotate" | "revoke" | null;

const button = "rounded border px-2 py-0.5 text-xs";
const neutral = `${button} border-neutral-300 hover:bg-neutral-50 dark:border-neutral-700 dark:hover:bg-neutral-800`;
const danger = `${button} border-red-300 text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950`;

/** The new key, this once: it lives in this component's state only and is gone when dismissed or the page is left. */
function NewKey({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  return (
    <div className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950" data-testid="new-key">
      <p className="text-sm">
        {name}&apos;s new key, shown only now. Its old keys no longer work: give this one to whatever runs as {name}.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1 font-mono text-xs dark:bg-neutral-900" data-testid="new-key-value">
          {secret}
        </code>
        <button
          type="button"
          className={neutral}
          onClick={() =>
            navigator.clipboard.writeText(secret).then(
              () => setCopied("yes"),
              () => setCopied("failed"),
            )
          }
        >
          {copied === "yes" ? "Copied" : "Copy"}
        </button>
        <button type="button" className={neutral} onClick={onDone}>
          Done
        </button>
      </div>
      {copied === "failed" && (
        <p role="alert" className="text-xs text-red-600">
          The browser refused the clipboard: select the key and copy it by hand.
        </p>
      )}
    </div>
  );
}

export function KeyActions({ agent }: { agent: { id: string; name: string } }) {
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [issued, setIssued] = useState<string | null>(null);
  const [revoked, setRevoked] = useState(false);
  const path = `/api/agents/${encodeURIComponent(agent.id)}/keys`;
  const rotate = useMutation<IssuedKey, ApiError>({
    mutationFn: () => apiPost<IssuedKey>(path, {}),
    onSuccess: (result) => {
      setConfirming(null);
      setRevoked(false);
      setIssued(result.key);
    },
  });
  const revoke = useMutation<void, ApiError>({
    mutationFn: () => apiDelete(path),
    onSuccess: () => {
      setConfirming(null);
      setIssued(null);
      setRevoked(true);
    },
  });
  const failed = rotate.error ?? revoke.error;
  const ask = (what: Confirming) => {
    rotate.reset();
    revoke.reset();
    setConfirming(what);
  };
  return (
    <section className="space-y-2" aria-label="Keys">
      <h2 className="text-sm font-semibold">Keys</h2>
      {issued && <NewKey name={agent.name} secret={issued} onDone={() => setIssued(null)} />}
      {revoked && <p className="text-sm text-neutral-600 dark:text-neutral-300">Every key of {agent.name} is revoked: it is locked out until you rotate it a new one.</p>}
      {confirming === null && (
        <div className="flex flex-wrap gap-2">
          <button type="button" className={neutral} onClick={() => ask("rotate")}>
            Rotate key
          </button>
          <button type="button" className={danger} onClick={() => ask("revoke")}>
            Revoke keys
          </button>
        </div>
      )}
      {confirming === "rotate" && (
        <fieldset className="flex flex-wrap items-center gap-2 text-sm">
          <legend className="sr-only">Confirm rotating the key</legend>
          <span>Issue {agent.name} a new key? Its current keys stop working at once.</span>
          <button
            type="button"
            disabled={rotate.isPending}
            onClick={() => rotate.mutate()}
            className="rounded bg-accent-600 px-2 py-0.5 text-xs font-medium text-white disabled:opacity-50"
          >
            Rotate now
          </button>
          <button type="button" onClick={() => ask(null)} className="text-xs text-neutral-500">
            Cancel
          </button>
        </fieldset>
      )}
      {confirming === "revoke" && (
        <fieldset className="flex flex-wrap items-center gap-2 text-sm">
          <legend className="sr-only">Confirm revoking the keys</legend>
          <span>Revoke every key of {agent.name}? It is locked out until a key is rotated.</span>
          <button
            type="button"
            disabled={revoke.isPending}
            onClick={() => revoke.mutate()}
            className="rounded bg-red-600 px-2 py-0.5 text-xs font-medium text-white disabled:opacity-50"
          >
            Revoke all keys
          </button>
          <button type="button" onClick={() => ask(null)} className="text-xs text-neutral-500">
            Cancel
          </button>
        </fieldset>
      )}
      {failed && (
        <p role="alert" className="text-xs text-red-600">
          {failed.message}
        </p>
      )}
    </section>
  );
}
