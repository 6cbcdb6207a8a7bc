// A task as the explorer reads it: a header (number, title, status, people) with its thread or audit.
import { eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { principals, tasks } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import type { Principal } from "../principal";
import { loadAudit, type Audit } from "./audit";
import { loadThread, type ThreadEntry } from "./thread";

export interface TaskHeader {
  id: string;
  number: number;
  title: string;
  status: string;
  ownerId: string | null;
  ownerName: string | null;
  approverId: string;
  approverName: string | null;
}

/** GET /api/journal/tasks/:id/thread */
export interface TaskThread {
  task: TaskHeader;
  items: ThreadEntry[];
}

/** GET /api/journal/tasks/:id/audit */
export type TaskAudit = { task: TaskHeader } & Audit;

export async function taskHeader(db: Executor, taskId: string): Promise<TaskHeader> {
  const owner = alias(principals, "owner");
  const approver = alias(principals, "approver");
  const [row] = await db
    .select({
      id: tasks.id,
      number: tasks.number,
      title: tasks.title,
      status: tasks.status,
      ownerId: tasks.ownerId,
      ownerName: owner.name,
      approverId: tasks.approverId,
      approverName: approver.name,
    })
    .from(tasks)
    .leftJoin(owner, eq(owner.id, tasks.ownerId))
    .leftJoin(approver, eq(approver.id, tasks.approverId))
    .where(eq(tasks.id, taskId));
  if (!row) throw fail.notFound("task", `no task ${taskId}`);
  return row;
}

export async function taskThread(db: Executor, taskId: string, viewer: Principal): Promise<TaskThread> {
  return { task: await taskHeader(db, taskId), items: await loadThread(db, taskId, viewer) };
}

export async function taskAudit(db: Executor, taskId: string, viewer: Principal): Promise<TaskAudit> {
  return { task: await taskHeader(db, taskId), ...(await loadAudit(db, taskId, viewer)) };
}
