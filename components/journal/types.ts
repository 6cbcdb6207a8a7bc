// Shapes of the explorer's views as the browser receives them: the server's own view types, so the
// two cannot drift apart (type-only imports; nothing of domain/ or agents/ reaches the browser bundle).
export type { TaskHeader, TaskThread, TaskAudit } from "@/domain/tasks/task-journal";
export type { ThreadEntry } from "@/domain/tasks/thread";
export type { Submission, Verdict } from "@/domain/tasks/audit";
export type { Observation, Mail, RunResult } from "@/domain/runs/run-events";
export type { Timeline, TimelineTurn } from "@/domain/runs/timeline";
export type { Comparable, ReplayReport } from "@/domain/runs/replay-report";
export type { ForkReport, ForkStep } from "@/domain/runs/fork-report";
export type { ForkScript } from "@/domain/runs/fork-input";
export type { JournalArchiveView as JournalArchive } from "@/domain/retention/archives";
