"use client";
// Settings → People: invite a teammate (the link shown once, with its expiry), the invitations still open with
// Revoke, and the humans who may sign in with Remove (not yourself).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { type ApiError, apiDelete, apiGet, apiPost } from "../api";
import { inputClass, ServerError } from "../board/dialog";
import { CopyButton } from "../copy-button";
import { queryKeys } from "../query-keys";
import { RelativeTime } from "../time";

interface Invitation {
  id: string;
  name: string;
  createdByName: string;
  createdAt: string;
  expiresAt: string;
}
interface Human {
  id: string;
  name: string;
  lastSeenAt: string | null;
  you: boolean;
}

const EXPIRY = [
  { hours: 24, label: "1 day" },
  { hours: 72, label: "3 days" },
  { hours: 168, label: "7 days" },
] as const;

const smallButton = "rounded border px-2 py-0.5 text-xs";

function InviteForm() {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [hours, setHours] = useState<number>(72);
  const [made, setMade] = useState<{ name: string; url: string; expiresAt: string } | null>(null);
  const invite = useMutation<{ invitation: Invitation; url: string }, ApiError, { name: string; expiresInHours: number }>({
    mutationFn: (body) => apiPost("/api/invitations", body),
    onSuccess: ({ invitation, url }) => {
      setMade({ name: invitation.name, url, expiresAt: invitation.expiresAt });
      setName("");
      queryClient.invalidateQueries({ queryKey: queryKeys.invitations() });
    },
  });
  return (
    <div className="rounded-lg border border-neutral-200 p-3 dark:border-neutral-800">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) invite.mutate({ name: name.trim(), expiresInHours: hours });
        }}
      >
        <label className="min-w-40 flex-1 text-sm">
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} className={`${inputClass} mt-1`} name="name" placeholder="their @name, e.g. ada" autoComplete="off" />
        </label>
        <label className="text-sm">
          Expires after
          <select value={hours} onChange={(e) => setHours(Number(e.target.value))} className={`${inputClass} mt-1`} name="expiresInHours">
            {EXPIRY.map((e) => (
              <option key={e.hours} value={e.hours}>
                {e.label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="submit"
          disabled={invite.isPending || !name.trim()}
          className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700 disabled:opacity-60"
        >
          {invite.isPending ? "Inviting…" : "Invite"}
        </button>
      </form>
      <ServerError error={invite.error} />
      {made && (
        <div data-testid="invitation-link" className="mt-3 rounded border border-green-300 bg-green-50 p-2 text-sm dark:border-green-800 dark:bg-green-950/40">
          <p>
            Send this link to <strong>{made.name}</strong>. It is shown only now, works once, and expires <RelativeTime iso={made.expiresAt} className="" />.
          </p>
          <div className="mt-1 flex items-center gap-2">
            <code className="min-w-0 flex-1 font-mono text-xs break-all" data-testid="invitation-url">
              {made.url}
            </code>
            <CopyButton text={made.url} />
          </div>
        </div>
      )}
    </div>
  );
}

export function People() {
  const queryClient = useQueryClient();
  const invitations = useQuery<{ items: Invitation[] }, ApiError>({ queryKey: queryKeys.invitations(), queryFn: () => apiGet("/api/invitations") });
  const humans = useQuery<{ items: Human[] }, ApiError>({ queryKey: queryKeys.humans(), queryFn: () => apiGet("/api/humans") });
  const revoke = useMutation<void, ApiError, string>({
    mutationFn: (id) => apiDelete(`/api/invitations/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.invitations() }),
  });
  const remove = useMutation<void, ApiError, string>({
    mutationFn: (id) => apiDelete(`/api/humans/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.humans() }),
  });
  return (
    <section aria-labelledby="people-title" className="space-y-3">
      <div>
        <h2 id="people-title" className="text-lg font-semibold">
          People
        </h2>
        <p className="mt-1 text-xs text-neutral-500 dark:text-neutral-400">Invite a teammate by name: they open the link, press Join, and are signed in.</p>
      </div>
      <InviteForm />
      <ServerError error={revoke.error ?? remove.error} />
      <div>
        <h3 className="text-sm font-semibold">Invitations waiting</h3>
        {invitations.data?.items.length === 0 && <p className="text-sm text-neutral-600 dark:text-neutral-300">None open.</p>}
        <ul className="mt-1 divide-y divide-neutral-100 dark:divide-neutral-800" data-testid="invitations">
          {invitations.data?.items.map((i) => (
            <li key={i.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5 text-sm" data-testid="invitation-row">
              <span className="font-medium">{i.name}</span>
              <span className="text-xs text-neutral-600 dark:text-neutral-300">
                by {i.createdByName}, expires <RelativeTime iso={i.expiresAt} className="" />
              </span>
              <button
                type="button"
                onClick={() => revoke.mutate(i.id)}
                className={`${smallButton} ml-auto border-red-300 text-red-800 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950`}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h3 className="text-sm font-semibold">Humans who can sign in</h3>
        <ul className="mt-1 divide-y divide-neutral-100 dark:divide-neutral-800" data-testid="humans">
          {humans.data?.items.map((h) => (
            <li key={h.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5 text-sm" data-testid="human-row">
              <span className="font-medium">{h.name}</span>
              <span className="text-xs text-neutral-600 dark:text-neutral-300">
                {h.you ? (
                  "you"
                ) : h.lastSeenAt ? (
                  <>
                    seen <RelativeTime iso={h.lastSeenAt} className="" />
                  </>
                ) : (
                  "not seen yet"
                )}
              </span>
              {!h.you && (
                <button
                  type="button"
                  onClick={() => {
                    if (window.confirm(`Remove ${h.name}? Their sessions end now; \`quorum human add ${h.name}\` brings them back.`)) remove.mutate(h.id);
                  }}
                  className={`${smallButton} ml-auto border-neutral-300 hover:bg-neutral-100 dark:border-neutral-700 dark:hover:bg-neutral-800`}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
