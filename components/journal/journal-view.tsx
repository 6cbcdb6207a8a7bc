"use client";
// The Journal page: the event stream filtered by kind, actor, task, run and full text; a task opens as its
// thread or audit, a run as its timeline, replay or diagnosis. The URL holds it all, so any view is a link.
import { useState } from "react";
import { EventList } from "./event-list";
import { JournalFilters } from "./journal-filters";
import { type JournalParams, type KindChoice, RUN_VIEWS, shownView, TASK_VIEWS, toSearch, type View } from "./journal-params";
import { DiagnosisPanel } from "../diagnosis/diagnosis-panel";
import { RunReplay } from "./run-replay";
import { RunTimeline } from "./run-timeline";
import { TaskAudit } from "./task-audit";
import { TaskThread } from "./task-thread";

const LABELS: Record<View, string> = { events: "Events", thread: "Thread", audit: "Audit", timeline: "Timeline", replay: "Replay", diagnosis: "Diagnosis" };

function Tabs({ params, view, update }: { params: JournalParams; view: View; update: (patch: Partial<JournalParams>) => void }) {
  const views: View[] = ["events", ...(params.task ? TASK_VIEWS : []), ...(params.run ? RUN_VIEWS : [])];
  if (views.length === 1) return null;
  return (
    <div role="tablist" aria-label="Views" className="flex gap-1 overflow-x-auto border-b border-neutral-200 px-3 md:px-6 dark:border-neutral-800">
      {views.map((v) => (
        <button
          key={v}
          type="button"
          role="tab"
          aria-selected={view === v}
          onClick={() => update({ view: v })}
          className={`-mb-px shrink-0 border-b-2 px-3 py-1.5 text-sm whitespace-nowrap ${view === v ? "border-accent-600 font-medium" : "border-transparent text-neutral-600 hover:text-neutral-900 dark:text-neutral-400 dark:hover:text-neutral-100"}`}
        >
          {LABELS[v]}
          {TASK_VIEWS.includes(v) && <span className="ml-1 text-xs text-neutral-500">(task)</span>}
          {RUN_VIEWS.includes(v) && <span className="ml-1 text-xs text-neutral-500">(run)</span>}
        </button>
      ))}
    </div>
  );
}

export function JournalView({ initial, kinds }: { initial: JournalParams; kinds: readonly KindChoice[] }) {
  const [params, setParams] = useState(initial);
  const update = (patch: Partial<JournalParams>) => {
    const next = { ...params, ...patch };
    setParams(next);
    const search = toSearch(next);
    window.history.replaceState(null, "", search ? `/journal?${search}` : "/journal");
  };
  const view = shownView(params);
  return (
    <div className="flex h-full flex-col">
      <JournalFilters params={params} kinds={kinds} update={update} />
      <Tabs params={params} view={view} update={update} />
      <div className="min-h-0 flex-1 overflow-y-auto" role="tabpanel" aria-label={LABELS[view]}>
        {view === "events" && <EventList params={params} update={update} />}
        {view === "thread" && <TaskThread taskId={params.task} update={update} />}
        {view === "audit" && <TaskAudit taskId={params.task} update={update} />}
        {view === "timeline" && <RunTimeline runId={params.run} update={update} />}
        {view === "replay" && <RunReplay runId={params.run} update={update} />}
        {view === "diagnosis" && <DiagnosisPanel key={params.run} target={{ scope: "run", runId: params.run }} className="px-6 py-4" />}
      </div>
    </div>
  );
}
