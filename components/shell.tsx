"use client";
// The frame of every page: a left rail of pages, a top strip answering "what needs me?".
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { apiGet } from "./api";
import { queryKeys } from "./query-keys";
import { Avatar } from "./avatar";
import { TeamSpend } from "./bill/team-spend";
import { EscalationNotifier } from "./decisions/escalation-alerts";
import { WaitingBadge, WaitingInbox } from "./desk/waiting";
import { useLiveStatus } from "./live";
import { NAV_PAGES } from "./nav-pages";
import { SignedOut, SignOutButton, useMe } from "./session";
import type { Page, RosterRow } from "./types";

function LiveDot() {
  const status = useLiveStatus();
  const colour = status === "live" ? "bg-green-500" : "bg-amber-500";
  const label = status === "live" ? "Live" : status === "connecting" ? "Connecting…" : "Reconnecting…";
  return (
    <span className="flex items-center gap-2 text-xs text-neutral-500 dark:text-neutral-400" data-testid="live-status" data-status={status}>
      <span className={`h-2 w-2 rounded-full ${colour}`} aria-hidden />
      {label}
    </span>
  );
}

export function usePrincipals(enabled = true) {
  return useQuery({
    queryKey: queryKeys.principals(),
    queryFn: () => apiGet<Page<RosterRow>>("/api/agents"),
    enabled,
  });
}

function TopStrip() {
  const principals = usePrincipals();
  const agents = principals.data?.items.filter((p) => p.kind === "agent") ?? [];
  const present = agents.filter((a) => a.present).length;
  return (
    <div className="flex h-10 items-center gap-6 border-b border-neutral-200 px-6 text-sm dark:border-neutral-800">
      <TeamSpend />
      <span>
        <strong className="tabular-nums">{present}</strong>
        <span className="text-neutral-500 dark:text-neutral-400"> of {agents.length} agents present</span>
      </span>
      <WaitingInbox />
      <EscalationNotifier />
    </div>
  );
}

export function Shell({ children }: { children: ReactNode }) {
  const me = useMe();
  const pathname = usePathname();
  if (me.isPending) return <div className="p-8 text-sm text-neutral-500">Loading…</div>;
  if (me.isError) {
    if (me.error.status === 401) return <SignedOut />;
    return <div className="p-8 text-sm text-red-600">Quorum could not be reached: {me.error.message}. Is the server running?</div>;
  }
  return (
    <div className="flex h-dvh">
      <nav aria-label="Pages" className="flex w-52 shrink-0 flex-col border-r border-neutral-200 bg-neutral-50 dark:border-neutral-800 dark:bg-neutral-900">
        <div className="px-4 py-4 text-base font-bold tracking-tight">Quorum</div>
        <ul className="flex-1 space-y-0.5 px-2">
          {NAV_PAGES.map((page) => {
            const active = pathname.startsWith(page.href);
            return (
              <li key={page.href}>
                <Link
                  href={page.href}
                  aria-current={active ? "page" : undefined}
                  className={`flex items-center rounded-md px-3 py-1.5 text-sm ${active ? "bg-accent-600 font-medium text-white" : "hover:bg-neutral-200 dark:hover:bg-neutral-800"}`}
                >
                  {page.label}
                  {page.badge ? <page.badge /> : <WaitingBadge href={page.href} />}
                </Link>
              </li>
            );
          })}
        </ul>
        <div className="space-y-2 border-t border-neutral-200 px-4 py-3 dark:border-neutral-800">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            {/* basis-0: a long name shortens, it never pushes Sign out onto a line of its own. */}
            <span className="flex min-w-0 flex-1 basis-0 items-center gap-2" data-testid="signed-in-as">
              <Avatar id={me.data.id} name={me.data.name} kind={me.data.kind} size="sm" />
              <span className="min-w-0 truncate">{me.data.name}</span>
            </span>
            {me.data.kind === "human" && <SignOutButton />}
          </div>
          <LiveDot />
        </div>
      </nav>
      <div className="flex min-w-0 flex-1 flex-col">
        <TopStrip />
        <main className="min-h-0 flex-1">{children}</main>
      </div>
    </div>
  );
}
