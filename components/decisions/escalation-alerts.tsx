"use client";
// What the frame shows about escalations: the rail badge and a browser notification (the count is in desk/waiting.tsx).
import { useEffect, useRef, useState } from "react";
import { ReviewNotifier } from "../board/review-notifier";
import { useMe } from "../session";
import { useEscalations } from "./use-decisions";

/** The count by the Decisions entry of the rail: red while something waits for a human. */
export function EscalationBadge() {
  const total = useEscalations().data?.total ?? 0;
  if (total === 0) return null;
  // The number is drawn for the eye; the link's accessible name reads the words instead.
  return (
    <>
      <span data-testid="escalation-badge" className="ml-auto rounded-full bg-red-600 px-1.5 text-[11px] font-semibold text-white tabular-nums" aria-hidden="true">
        {total}
      </span>
      <span className="sr-only">{total === 1 ? "1 escalation waiting" : `${total} escalations waiting`}</span>
    </>
  );
}

/**
 * A browser notification for each escalation that arrives while the page is open (not for the
 * ones already waiting at load). Permission is asked for with a button: browsers refuse to ask
 * without a click.
 */
export function EscalationNotifier() {
  const me = useMe().data;
  const query = useEscalations(me?.kind === "human");
  const seen = useRef<Set<string> | null>(null);
  const [permission, setPermission] = useState<NotificationPermission | "unsupported">("unsupported");
  useEffect(() => {
    if (typeof Notification !== "undefined") setPermission(Notification.permission);
  }, []);
  useEffect(() => {
    if (!query.data) return;
    const ids = query.data.items.map((d) => d.id);
    if (seen.current === null) {
      seen.current = new Set(ids);
      return;
    }
    for (const decision of query.data.items) {
      if (seen.current.has(decision.id)) continue;
      seen.current.add(decision.id);
      if (typeof Notification !== "undefined" && Notification.permission === "granted") {
        const note = new Notification(`Escalation D-${decision.number}: ${decision.question}`, {
          body: (decision.envelope ?? "").split("\n").slice(1).join("\n"),
          tag: decision.id,
        });
        note.onclick = () => {
          window.focus();
          window.location.assign("/decisions/escalations");
        };
      }
    }
  }, [query.data]);
  if (me?.kind !== "human") return null;
  // Reviews waiting for this human notify under the same permission.
  if (permission !== "default") return <ReviewNotifier />;
  return (
    <>
      <ReviewNotifier />
      <button type="button" onClick={() => Notification.requestPermission().then(setPermission)} className="text-xs text-accent-600 hover:underline">
        Notify me of escalations and reviews
      </button>
    </>
  );
}
