// Shapes of the explorer's views as the browser receives them: the server's own view types, so the
// two cannot drift apart (type-only imports; nothing of server/ or agents/ reaches the browser bundle).
import type { TaskHeader } from "@/server/journal/task-journal";
import type { Audit } from "@/server/journal/views/audit";
export type { TaskHeader };
export type { ThreadEntry } from "@/server/journal/views/thread";
export type { Submission, Verdict } from "@/server/journal/views/audit";
export type { Observation, Mail, RunResult } from "@/server/journal/views/run-events";
export type { Timeline, TimelineTurn } from "@/server/journal/views/timeline";
export type { Comparable, ReplayReport } from "@/server/journal/views/replay-report";
export type { Finding } from "@/server/journal/views/diagnose";

export type TaskAudit = { task: TaskHeader } & Audit;
