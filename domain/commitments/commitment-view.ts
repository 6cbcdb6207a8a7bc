// The JSON shape of a commitment (with what blocks it and what it blocks) and how to read it.
import { eq, inArray, or } from "drizzle-orm";
import { commitmentDependencies, commitments, principals, type CommitmentStatus } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import { isUuid } from "../ids";

export type CommitmentRow = typeof commitments.$inferSelect;
export type { CommitmentStatus };
type Kind = "human" | "agent" | "system";

export interface CommitmentRef {
  id: string;
  number: number;
  what: string;
  status: CommitmentStatus;
}

export interface CommitmentView {
  id: string;
  number: number;
  ownerId: string;
  ownerName: string;
  ownerKind: Kind;
  what: string;
  taskId: string | null;
  dueAt: string | null;
  status: CommitmentStatus;
  reason: string | null;
  /** Unfinished (candidate or confirmed) and past its due date. */
  overdue: boolean;
  createdAt: string;
  confirmedAt: string | null;
  finishedAt: string | null;
  /** What this waits on. */
  blockers: CommitmentRef[];
  /** What waits on this. */
  blocking: CommitmentRef[];
}

export function isUnfinished(status: CommitmentStatus): boolean {
  return status === "candidate" || status === "confirmed";
}

export function isOverdue(row: Pick<CommitmentRow, "status" | "dueAt">, now: Date): boolean {
  return isUnfinished(row.status) && row.dueAt !== null && row.dueAt.getTime() <= now.getTime();
}

const iso = (d: Date | null) => d?.toISOString() ?? null;
const ref = (row: CommitmentRow): CommitmentRef => ({ id: row.id, number: row.number, what: row.what, status: row.status });

/** Rows become views with owners' names and both directions of their edges, in three queries. */
export async function toCommitmentViews(db: Executor, rows: CommitmentRow[], now: Date): Promise<CommitmentView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const edges = await db
    .select()
    .from(commitmentDependencies)
    .where(or(inArray(commitmentDependencies.blockedId, ids), inArray(commitmentDependencies.blockerId, ids)));
  const otherIds = [...new Set(edges.flatMap((e) => [e.blockedId, e.blockerId]))].filter((id) => !ids.includes(id));
  const others = otherIds.length ? await db.select().from(commitments).where(inArray(commitments.id, otherIds)) : [];
  const byId = new Map([...rows, ...others].map((r) => [r.id, r]));
  const ownerIds = [...new Set(rows.map((r) => r.ownerId))];
  const owners = new Map((await db.select().from(principals).where(inArray(principals.id, ownerIds))).map((p) => [p.id, p]));
  return rows.map((row) => ({
    id: row.id,
    number: row.number,
    ownerId: row.ownerId,
    ownerName: owners.get(row.ownerId)?.name ?? "?",
    ownerKind: owners.get(row.ownerId)?.kind ?? "agent",
    what: row.what,
    taskId: row.taskId,
    dueAt: iso(row.dueAt),
    status: row.status,
    reason: row.reason,
    overdue: isOverdue(row, now),
    createdAt: row.createdAt.toISOString(),
    confirmedAt: iso(row.confirmedAt),
    finishedAt: iso(row.finishedAt),
    blockers: edges.filter((e) => e.blockedId === row.id).map((e) => ref(byId.get(e.blockerId)!)),
    blocking: edges.filter((e) => e.blockerId === row.id).map((e) => ref(byId.get(e.blockedId)!)),
  }));
}

function requireId(id: string): void {
  if (!isUuid(id)) throw fail.notFound("commitment", `no commitment with id '${id}'`);
}

/** Reads and row-locks one commitment; an unknown or malformed id is a 404. */
export async function lockCommitment(db: Executor, id: string): Promise<CommitmentRow> {
  requireId(id);
  const [row] = await db.select().from(commitments).where(eq(commitments.id, id)).for("update");
  if (!row) throw fail.notFound("commitment", `no commitment with id '${id}'`);
  return row;
}

export async function readCommitmentView(db: Executor, id: string, now: Date): Promise<CommitmentView> {
  requireId(id);
  const [row] = await db.select().from(commitments).where(eq(commitments.id, id));
  if (!row) throw fail.notFound("commitment", `no commitment with id '${id}'`);
  return (await toCommitmentViews(db, [row], now))[0];
}
