// Shapes of the explorer's views as the browser receives them: the server's own view types, so the
// two cannot drift apart (type-only imports; nothing of server/ or agents/ reaches the browser bundle).
export type { TaskHeader, TaskThread, TaskAudit } from "@/server/journal/task-journal";
export type { RunDiagnosis } from "@/server/journal/run-journal";
export type { ThreadEntry } from "@/server/journal/views/thread";
export type { Submission, Verdict } from "@/server/journal/views/audit";
export type { Observation, Mail, RunResult } from "@/server/journal/views/run-events";
export type { Timeline, TimelineTurn } from "@/server/journal/views/timeline";
export type { Comparable, ReplayReport } from "@/server/journal/views/replay-report";
export type { Finding } from "@/server/journal/views/diagnose";
