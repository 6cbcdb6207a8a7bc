// The explorer's state, kept in the URL so that any view can be linked to: filters, search, view, focus.
export const VIEWS = ["events", "thread", "audit", "timeline", "replay", "diagnosis"] as const;
export type View = (typeof VIEWS)[number];

export interface JournalParams {
  kind: string;
  actor: string;
  task: string;
  run: string;
  q: string;
  view: View;
  /** Open the list at this event (highlighted, expanded). */
  at: number | null;
  /** Show the plumbing too (message deliveries, model calls, leases renewed…); hidden by default. */
  system: boolean;
}

export const TASK_VIEWS: View[] = ["thread", "audit"];
export const RUN_VIEWS: View[] = ["timeline", "replay", "diagnosis"];

export function readParams(search: Record<string, string | string[] | undefined>): JournalParams {
  const one = (key: string) => {
    const value = search[key];
    return (Array.isArray(value) ? value[0] : value)?.trim() ?? "";
  };
  const view = (VIEWS as readonly string[]).includes(one("view")) ? (one("view") as View) : "events";
  const at = Number(one("at"));
  return {
    kind: one("kind"),
    actor: one("actor"),
    task: one("task"),
    run: one("run"),
    q: one("q"),
    view,
    at: Number.isInteger(at) && at > 0 ? at : null,
    system: one("system") === "1",
  };
}

/** The view actually shown: a task view needs a task, a run view a run. */
export function shownView(p: JournalParams): View {
  if (TASK_VIEWS.includes(p.view) && !p.task) return "events";
  if (RUN_VIEWS.includes(p.view) && !p.run) return "events";
  return p.view;
}

export function toSearch(p: JournalParams): string {
  const out = new URLSearchParams();
  for (const key of ["kind", "actor", "task", "run", "q"] as const) if (p[key]) out.set(key, p[key]);
  if (p.view !== "events") out.set("view", p.view);
  if (p.at) out.set("at", String(p.at));
  if (p.system) out.set("system", "1");
  return out.toString();
}

/** The API query of the event list. */
export function listQuery(p: JournalParams): URLSearchParams {
  const out = new URLSearchParams({ limit: "100" });
  for (const key of ["kind", "actor", "task", "run", "q"] as const) if (p[key]) out.set(key, p[key]);
  // The plumbing stays out unless asked for: by the toggle, by naming its kind, or by a link to one event.
  if (!p.system && !p.at) out.set("system", "hide");
  return out;
}

/** A kind as the filter offers it: its name in the rows' words, and whether it is plumbing. */
export interface KindChoice {
  kind: string;
  words: string;
  system: boolean;
}
