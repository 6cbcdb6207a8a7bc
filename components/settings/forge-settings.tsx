"use client";
// A forge's settings beside its token: the label that makes its issues proposed flights, whether Quorum polls it, and
// its webhook — the URL to paste into GitHub and a secret Quorum generates, shown once.
import { type FormEvent, useEffect, useId, useState } from "react";
import { ServerError } from "../board/dialog";
import { CopyButton } from "../copy-button";
import { toast } from "../toast";
import { fieldClass } from "./forge-form";
import type { ForgeHost, WebhookSecret } from "./types";
import { useChangeForgeSettings, useGenerateWebhookSecret, useRemoveWebhookSecret } from "./use-forges";

const button = "rounded border border-neutral-300 px-2 py-0.5 text-xs hover:bg-neutral-100 disabled:opacity-50 dark:border-neutral-700 dark:hover:bg-neutral-800";
const heading = "text-xs font-semibold text-neutral-800 dark:text-neutral-100";
const note = "text-xs text-neutral-600 dark:text-neutral-300";

function IntakeLabel({ forge }: { forge: ForgeHost }) {
  const change = useChangeForgeSettings();
  const [label, setLabel] = useState(forge.intakeLabel ?? "");
  const noteId = useId();
  // Another tab (or the stream) may change it: the field follows the saved value.
  useEffect(() => setLabel(forge.intakeLabel ?? ""), [forge.intakeLabel]);
  const edited = label.trim() !== (forge.intakeLabel ?? "");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const intakeLabel = label.trim() || null;
    change.mutate(
      { id: forge.id, intakeLabel },
      { onSuccess: () => toast(intakeLabel ? `Issues labelled "${intakeLabel}" on ${forge.host} now wait for you` : `${forge.host}'s issues are no longer proposed`) },
    );
  };
  return (
    <form onSubmit={submit} aria-label={`Issues for the team on ${forge.host}`} className="space-y-1">
      <h3 className={heading}>Issues for the team</h3>
      <div className="flex flex-wrap items-end gap-2">
        <label className="block min-w-0 grow text-xs font-medium sm:max-w-xs">
          Intake label
          <input
            className={`${fieldClass} mt-1`}
            value={label}
            maxLength={50}
            placeholder="none (for example quorum)"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={noteId}
            onChange={(e) => setLabel(e.target.value)}
          />
        </label>
        <button type="submit" className={button} disabled={change.isPending || !edited}>
          {change.isPending ? "Saving…" : "Save label"}
        </button>
      </div>
      <p id={noteId} className={note}>
        {forge.intakeLabel
          ? `An open issue labelled "${forge.intakeLabel}" on one of this forge's repositories waits for you as a proposed flight: you edit its goal and start it, or dismiss it.`
          : "Give a label to have issues carrying it wait for you as proposed flights. Empty: no issue is proposed."}
      </p>
      <ServerError error={change.error} />
    </form>
  );
}

function Polling({ forge }: { forge: ForgeHost }) {
  const change = useChangeForgeSettings();
  const noteId = useId();
  return (
    <div className="space-y-1">
      <label className="flex items-center gap-2 text-xs font-medium">
        <input
          type="checkbox"
          checked={forge.pollPullRequests}
          disabled={change.isPending}
          aria-describedby={noteId}
          onChange={(e) =>
            change.mutate(
              { id: forge.id, pollPullRequests: e.target.checked },
              { onSuccess: (saved) => toast(saved.pollPullRequests ? `Quorum asks ${forge.host} every minute` : `Quorum waits for ${forge.host}'s webhook`) },
            )
          }
        />
        Ask the forge every minute
      </label>
      <p id={noteId} className={note}>
        Quorum looks at its open pull requests, and at labelled issues on the repositories it has flown here, once a minute each. Turn it off once this forge&apos;s webhook reaches
        Quorum: it then says each change as it happens.
      </p>
      <ServerError error={change.error} />
    </div>
  );
}

/** The secret just generated: the one time it is shown, with what to do with it on GitHub. */
function NewSecret({ shown, onStored }: { shown: WebhookSecret; onStored: () => void }) {
  return (
    <div role="status" data-testid="forge-webhook-secret" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-xs dark:border-amber-700 dark:bg-amber-950/40">
      <p className="text-sm font-medium">Webhook secret for {shown.forge.host} — shown only now.</p>
      <div className="mt-2 flex items-start gap-2">
        <code className="block min-w-0 grow rounded bg-white px-2 py-1 font-mono break-all select-all dark:bg-neutral-900">{shown.secret}</code>
        <CopyButton text={shown.secret} label="Copy secret" />
      </div>
      <p className="mt-2">
        On GitHub, in the repository&apos;s (or organisation&apos;s) Settings → Webhooks → Add webhook: paste the payload URL above, choose{" "}
        <span className="font-mono">application/json</span>, paste this secret, and send the events Issues, Pull requests, Pull request reviews and Check runs.
      </p>
      <button type="button" className="mt-2 underline" onClick={onStored}>
        I have stored it
      </button>
    </div>
  );
}

function Webhook({ forge }: { forge: ForgeHost }) {
  const generate = useGenerateWebhookSecret();
  const remove = useRemoveWebhookSecret();
  const [shown, setShown] = useState<WebhookSecret | null>(null);
  const makeSecret = () => {
    if (forge.webhookSecretSet && !window.confirm(`Replace ${forge.host}'s webhook secret? GitHub's deliveries are refused until you paste the new one there.`)) return;
    generate.mutate(forge.id, { onSuccess: setShown });
  };
  const removeSecret = () => {
    if (!window.confirm(`Remove ${forge.host}'s webhook secret? Its deliveries are then refused, and only polling brings news.`)) return;
    remove.mutate(forge.id, {
      onSuccess: () => {
        setShown(null);
        toast(`Removed ${forge.host}'s webhook secret`);
      },
    });
  };
  return (
    <div className="space-y-1">
      <h3 className={heading}>
        Webhook{" "}
        <span className="font-normal text-neutral-600 dark:text-neutral-300" data-testid="forge-webhook-state">
          · {forge.webhookSecretSet ? "secret set" : "no secret yet"}
        </span>
      </h3>
      <div className="flex items-start gap-2">
        <p className={`${note} min-w-0 grow`}>
          Payload URL{" "}
          <code className="font-mono break-all" data-testid="forge-webhook-url">
            {forge.webhookUrl}
          </code>
        </p>
        <CopyButton text={forge.webhookUrl} label="Copy URL" />
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={button} disabled={generate.isPending} onClick={makeSecret}>
          {forge.webhookSecretSet ? "New secret" : "Generate secret"}
        </button>
        {forge.webhookSecretSet && (
          <button type="button" className={`${button} text-red-700 dark:text-red-300`} disabled={remove.isPending} onClick={removeSecret}>
            Remove secret
          </button>
        )}
      </div>
      {shown && <NewSecret shown={shown} onStored={() => setShown(null)} />}
      <ServerError error={generate.error ?? remove.error} />
    </div>
  );
}

export function ForgeSettings({ forge }: { forge: ForgeHost }) {
  return (
    <div className="mt-3 space-y-3 border-t border-neutral-100 pt-3 dark:border-neutral-800" data-testid="forge-settings">
      <IntakeLabel forge={forge} />
      <Polling forge={forge} />
      <Webhook forge={forge} />
    </div>
  );
}
