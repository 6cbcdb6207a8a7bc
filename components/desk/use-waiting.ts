"use client";
// The signed-in human's waiting list: the top strip, the rail's badges and the inbox share this query; the
// live stream makes it stale whenever something that could enter or leave it happens (never a poll).
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { useMe } from "../session";
import { findingAnchor } from "../diagnosis/finding-anchor";
import type { WaitingItem, WaitingView } from "./types";

export function useWaiting() {
  const me = useMe();
  return useQuery({ queryKey: queryKeys.waiting(), queryFn: () => apiGet<WaitingView>("/api/me/waiting"), enabled: me.isSuccess });
}

/** Where a person acts on an item: the envelope, the drawer with Review focused, the room's composer (a proposed flight opens its own dialog instead). */
export function hrefOf(item: Exclude<WaitingItem, { kind: "proposal" }>): string {
  switch (item.kind) {
    case "escalation":
      return `/decisions/escalations#D-${item.number}`;
    case "review":
      return `/board?task=${item.taskId}&review=1`;
    case "request":
      return `/room/${item.room}`;
    case "handback":
      return `/board?task=${item.taskId}`;
    case "finding":
      return `/board/${item.goalNumber}#${findingAnchor(item.findingKey)}`;
    case "forge":
      return `/board/${item.goalNumber}`;
  }
}

/** One line about an item, in words. */
export function sentenceOf(item: WaitingItem): { lead: string; text: string } {
  switch (item.kind) {
    case "escalation":
      return { lead: `Decide D-${item.number}`, text: item.question };
    case "review":
      return { lead: `Review #${item.number}`, text: item.ownerName ? `${item.title} — by ${item.ownerName}` : item.title };
    case "request":
      return { lead: `${item.fromName} ${item.performative === "PROPOSE" ? "proposes" : "asks"} in #${item.room}`, text: item.excerpt };
    case "handback":
      return {
        lead: `Goal #${item.number} is back with you`,
        text:
          item.outcome === "setup_failed"
            ? `The flight's setup failed: ${item.reason.replace(/^the setup failed: /, "")}`
            : `${item.model} ${item.outcome === "failed" ? "failed" : `ended ${item.outcome.replaceAll("_", " ")}`}: ${item.reason}`,
      };
    case "finding":
      // The sentence first, in plain words; the mode is the item's small label (its name on hover).
      return { lead: item.sentence.charAt(0).toUpperCase() + item.sentence.slice(1), text: `on flight ${item.flightNumber}` };
    case "proposal":
      return { lead: `Issue #${item.issueNumber} on ${item.repository} is labelled for the team`, text: item.title };
    case "forge":
      return { lead: `Flight ${item.flightNumber}'s forge refuses`, text: `${item.reason} — Quorum tries again at the team's next turn; a token goes in Settings → Forges.` };
  }
}
