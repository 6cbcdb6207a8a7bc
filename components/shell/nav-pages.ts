// The pages of the left rail, in order. A new page adds its line here.
import type { ComponentType } from "react";
import { EscalationBadge } from "../decisions/escalation-alerts";
import { DisabledWebhooksBadge } from "../settings/settings-view";

export interface NavPage {
  href: string;
  label: string;
  /** A live count shown beside the label (the Escalations badge). */
  badge?: ComponentType;
  /** Pages reached from this one, not from the rail: while one is open, this line stays marked as where you are. */
  within?: string[];
}

export const NAV_PAGES: NavPage[] = [
  { href: "/room", label: "Room" },
  { href: "/board", label: "Board" },
  { href: "/decisions", label: "Decisions", badge: EscalationBadge },
  { href: "/commitments", label: "Commitments" },
  { href: "/bill", label: "Bill" },
  { href: "/journal", label: "Journal" },
  { href: "/agents", label: "Agents" },
  { href: "/principles", label: "Principles" },
  { href: "/settings", label: "Settings", badge: DisabledWebhooksBadge, within: ["/experiments"] },
];
