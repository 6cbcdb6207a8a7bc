// The JSON shape of a task, as the API and the board see it, and how to read it from the database.
import { eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { principals, tasks, type TaskStatus } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import { isUuid } from "../ids";
import { stallsAt } from "./lease";

export type TaskRow = typeof tasks.$inferSelect;
export type { TaskStatus };
type Kind = "human" | "agent" | "system";

export interface TaskView {
  id: string;
  number: number;
  title: string;
  description: string;
  acceptanceCriteria: string | null;
  /** The tests it is meant to make pass ([] when none are named). */
  targetTests: string[];
  status: TaskStatus;
  ownerId: string | null;
  ownerName: string | null;
  ownerKind: Kind | null;
  approverId: string;
  approverName: string;
  approverKind: Kind;
  fence: number;
  leaseMinutes: number | null;
  leaseExpiresAt: string | null;
  /** When its holder counts as stalled unless it heartbeats or writes output first (in progress only). */
  stallsAt: string | null;
  outputCount: number;
  /** How many of the tasks it depends on are not finished yet: it is claimed only at 0. */
  waitingOn: number;
  offeredTo: string | null;
  parentId: string | null;
  adrId: string | null;
  createdBy: string;
  createdByName: string;
  createdAt: string;
  updatedAt: string;
}

const owner = alias(principals, "owner");
const approver = alias(principals, "approver");
const creator = alias(principals, "creator");

/** A select of tasks joined with the names an avatar needs; add where/order/limit to taste. */
export function selectTaskViews(db: Executor) {
  return db
    .select({
      task: tasks,
      ownerName: owner.name,
      ownerKind: owner.kind,
      approverName: approver.name,
      approverKind: approver.kind,
      createdByName: creator.name,
    })
    .from(tasks)
    .leftJoin(owner, eq(owner.id, tasks.ownerId))
    .innerJoin(approver, eq(approver.id, tasks.approverId))
    .innerJoin(creator, eq(creator.id, tasks.createdBy))
    .$dynamic();
}

type ViewRow = Awaited<ReturnType<typeof selectTaskViews>>[number];

export function toTaskView({ task, ownerName, ownerKind, approverName, approverKind, createdByName }: ViewRow): TaskView {
  return {
    id: task.id,
    number: task.number,
    title: task.title,
    description: task.description,
    acceptanceCriteria: task.acceptanceCriteria,
    targetTests: task.targetTests ?? [],
    status: task.status,
    ownerId: task.ownerId,
    ownerName,
    ownerKind,
    approverId: task.approverId,
    approverName,
    approverKind,
    fence: task.fence,
    leaseMinutes: task.leaseMinutes,
    leaseExpiresAt: task.leaseExpiresAt?.toISOString() ?? null,
    stallsAt: task.status === "in_progress" ? (stallsAt(task)?.toISOString() ?? null) : null,
    outputCount: task.outputCount,
    waitingOn: task.waitingOn,
    offeredTo: task.offeredTo,
    parentId: task.parentId,
    adrId: task.adrId,
    createdBy: task.createdBy,
    createdByName,
    createdAt: task.createdAt.toISOString(),
    updatedAt: task.updatedAt.toISOString(),
  };
}

/** Ids arrive from URLs; a malformed one names no task (404), it is not a server error. */
export function assertTaskId(id: string): void {
  if (!isUuid(id)) throw fail.notFound("task", `no task with id '${id.slice(0, 64)}'`);
}

export async function readTaskView(db: Executor, id: string): Promise<TaskView> {
  assertTaskId(id);
  const [row] = await selectTaskViews(db).where(eq(tasks.id, id));
  if (!row) throw fail.notFound("task", `no task with id '${id}'`);
  return toTaskView(row);
}

/** Locks the task row for the rest of the transaction: every state change starts here. */
export async function lockTask(tx: Executor, id: string): Promise<TaskRow> {
  assertTaskId(id);
  const [row] = await tx.select().from(tasks).where(eq(tasks.id, id)).for("update");
  if (!row) throw fail.notFound("task", `no task with id '${id}'`);
  return row;
}
