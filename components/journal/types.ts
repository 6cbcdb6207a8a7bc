// Shapes of the explorer's views as the browser receives them: the server's own view types, so the
// two cannot drift apart (type-only imports; nothing of server/ or agents/ reaches the browser bundle).
export type { TaskHeader, TaskThread, TaskAudit } from "@/server/tasks/task-journal";
export type { ThreadEntry } from "@/server/tasks/thread";
export type { Submission, Verdict } from "@/server/tasks/audit";
export type { Observation, Mail, RunResult } from "@/server/runs/run-events";
export type { Timeline, TimelineTurn } from "@/server/runs/timeline";
export type { Comparable, ReplayReport } from "@/server/runs/replay-report";
export type { ForkReport, ForkStep } from "@/server/runs/fork-report";
export type { ForkScript } from "@/server/runs/fork-input";
export type { JournalArchiveView as JournalArchive } from "@/server/retention/archives";
