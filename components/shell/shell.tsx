"use client";
// The frame of every page: a left rail of pages, a top strip answering "what needs me?".
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState, type ReactNode } from "react";
import { Avatar } from "../avatar";
import { TeamSpend } from "../bill/team-spend";
import { EscalationNotifier } from "../decisions/escalation-alerts";
import { WaitingBadge, WaitingInbox } from "../desk/waiting";
import { ModelState } from "../agents/model-state";
import { useLiveStatus } from "../live";
import { NAV_PAGES } from "./nav-pages";
import { PageErrorBanner } from "../page-errors";
import { Toasts } from "../toast";
import { SignedOut, SignOutButton, useMe } from "../session";
import { usePresence } from "../use-presence";
import { usePrincipals } from "../use-principals";

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

function MenuIcon() {
  return (
    <svg viewBox="0 0 20 20" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" aria-hidden="true">
      <path d="M3 5h14M3 10h14M3 15h14" />
    </svg>
  );
}

function TopStrip({ ready, menuOpen, onMenu }: { ready: boolean; menuOpen: boolean; onMenu: () => void }) {
  const principals = usePrincipals(ready);
  const agents = principals.data?.items.filter((p) => p.kind === "agent") ?? [];
  const isPresent = usePresence(agents, principals.dataUpdatedAt, principals.refetch);
  const present = agents.filter(isPresent).length;
  return (
    // On a phone the strip keeps the menu, what waits for you and the spend; the rest is a tap away.
    <div className="flex h-11 shrink-0 items-center gap-3 border-b border-neutral-200 px-3 text-sm md:h-10 md:gap-6 md:px-6 dark:border-neutral-800" data-testid="top-strip">
      <button type="button" onClick={onMenu} aria-expanded={menuOpen} aria-controls="pages-rail" aria-label="Pages" className="rounded p-1 md:hidden">
        <MenuIcon />
      </button>
      {ready ? (
        <>
          <WaitingInbox />
          <span className="min-w-0 truncate">
            <TeamSpend />
          </span>
          <span className="max-md:hidden" data-testid="agents-present" data-present={present}>
            <strong className="tabular-nums">{present}</strong>
            <span className="text-neutral-600 dark:text-neutral-300"> of {agents.length} agents present</span>
          </span>
          <span className="max-md:hidden">
            <EscalationNotifier />
          </span>
          <ModelState />
        </>
      ) : (
        <span className="h-4 w-56 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-hidden />
      )}
    </div>
  );
}

function RailFoot() {
  const me = useMe();
  if (!me.data) return <div className="h-12 animate-pulse rounded bg-neutral-200/60 dark:bg-neutral-800" aria-hidden />;
  return (
    <>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {/* basis-0: a long name shortens, it never pushes Sign out onto a line of its own. */}
        <span className="flex min-w-0 flex-1 basis-0 items-center gap-2" data-testid="signed-in-as">
          <Avatar id={me.data.id} name={me.data.name} kind={me.data.kind} size="sm" />
          <span className="min-w-0 truncate">{me.data.name}</span>
        </span>
        {me.data.kind === "human" && <SignOutButton />}
      </div>
      <LiveDot />
      <Link href="/reference/api" className="block text-xs text-neutral-500 hover:underline">
        API reference
      </Link>
    </>
  );
}

export function Shell({ children }: { children: ReactNode }) {
  const me = useMe();
  const pathname = usePathname();
  // The phone's drawer is open on the page it was opened on: choosing another page closes it.
  const [menuAt, setMenuAt] = useState<string | null>(null);
  const menuOpen = menuAt === pathname;
  const setMenuOpen = (open: boolean) => setMenuAt(open ? pathname : null);
  // Escape closes the drawer, as it closes every menu and popover.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMenuAt(null);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [menuOpen]);
  // An invitation's page is for someone not signed in yet: no frame, no sign-in help.
  if (pathname.startsWith("/invite/")) return <>{children}</>;
  if (me.isError) {
    if (me.error.status === 401) return <SignedOut />;
    return (
      <div className="p-8 text-sm text-red-700 dark:text-red-300" role="alert">
        Quorum could not be reached: {me.error.message}. Is the server running?{" "}
        <button type="button" onClick={() => me.refetch()} className="underline">
          Retry
        </button>
      </div>
    );
  }
  // The frame draws at once; what needs the signed-in principal fills in when /api/me answers.
  const ready = me.isSuccess;
  return (
    <div className="flex h-dvh flex-col md:flex-row">
      {menuOpen && <button type="button" aria-label="Close pages" className="fixed inset-0 z-30 bg-black/40 md:hidden" onClick={() => setMenuOpen(false)} />}
      <nav
        id="pages-rail"
        aria-label="Pages"
        className={`w-52 shrink-0 flex-col border-r border-neutral-200 bg-neutral-50 md:flex dark:border-neutral-800 dark:bg-neutral-900 ${menuOpen ? "fixed inset-y-0 left-0 z-40 flex shadow-xl" : "hidden"}`}
      >
        <div className="px-4 py-4 text-base font-bold tracking-tight">Quorum</div>
        <ul className="flex-1 space-y-0.5 overflow-y-auto px-2">
          {NAV_PAGES.map((page) => {
            const active = [page.href, ...(page.within ?? [])].some((href) => pathname.startsWith(href));
            return (
              <li key={page.href}>
                <Link
                  href={page.href}
                  aria-current={active ? "page" : undefined}
                  className={`flex items-center rounded-md px-3 py-1.5 text-sm ${active ? "bg-accent-600 font-medium text-white" : "hover:bg-neutral-200 dark:hover:bg-neutral-800"}`}
                >
                  {page.label}
                  {ready && (page.badge ? <page.badge /> : <WaitingBadge href={page.href} />)}
                </Link>
              </li>
            );
          })}
        </ul>
        <div className="space-y-2 border-t border-neutral-200 px-4 py-3 dark:border-neutral-800">
          <RailFoot />
        </div>
      </nav>
      <div className="flex min-h-0 min-w-0 flex-1 flex-col">
        <TopStrip ready={ready} menuOpen={menuOpen} onMenu={() => setMenuOpen(!menuOpen)} />
        {ready && <PageErrorBanner />}
        <Toasts />
        <main className="min-h-0 flex-1">{ready ? children : <PageSkeleton />}</main>
      </div>
    </div>
  );
}

function PageSkeleton() {
  return (
    <div className="space-y-3 p-6" aria-busy="true">
      <span className="sr-only">Loading…</span>
      <div className="h-5 w-48 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" />
      <div className="h-24 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" />
      <div className="h-24 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" />
    </div>
  );
}
