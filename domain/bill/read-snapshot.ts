// A consistent read of the bill: the snapshot's rows and the fold of the events past its position (the
// tail, committed but not yet settled), in one repeatable-read transaction, so nothing counts twice.
import { and, eq, inArray, type SQL } from "drizzle-orm";
import { billBudgets, billLines, principals } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import { foldBill, type BillDelta, type LineDelta, type LineScope } from "./bill-fold";
import { billEventsAfter, refreshBillSnapshot, snapshotPosition, type SnapshotPosition } from "./snapshot";

export interface BillRead {
  tx: Tx;
  at: SnapshotPosition;
  /** The fold of the committed events past the snapshot's position. */
  tail: BillDelta;
}

/** Refreshes the snapshot, then runs `read` over a consistent view of snapshot and tail. */
export async function readBillSnapshot<T>(db: Db, read: (r: BillRead) => Promise<T>): Promise<T> {
  await refreshBillSnapshot(db);
  return db.transaction(
    async (tx) => {
      const at = await snapshotPosition(tx);
      const tail = foldBill(await billEventsAfter(tx, at, { settled: false }));
      return read({ tx, at, tail });
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

const lineId = (l: Pick<LineDelta, "scope" | "key" | "model">) => `${l.scope}\u0000${l.key}\u0000${l.model}`;

/** Loads the snapshot's lines of a scope (optionally some keys) into a delta. */
export async function loadLines(tx: Tx, into: BillDelta, scope: LineScope, keys?: string[]): Promise<void> {
  if (keys && keys.length === 0) return;
  const where: SQL[] = [eq(billLines.scope, scope)];
  if (keys) where.push(inArray(billLines.key, keys));
  for (const row of await tx
    .select()
    .from(billLines)
    .where(and(...where)))
    into.lines.set(lineId(row), { ...row });
}

export async function loadBudgets(tx: Tx, into: BillDelta): Promise<void> {
  for (const row of await tx.select().from(billBudgets)) into.budgets.set(row.budgetId, { ...row });
}

/** Names of principals by id (the snapshot keeps ids only). */
export async function namesOf(tx: Tx, ids: string[]): Promise<Map<string, string>> {
  const uuids = [...new Set(ids)].filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  if (uuids.length === 0) return new Map();
  const rows = await tx.select({ id: principals.id, name: principals.name }).from(principals).where(inArray(principals.id, uuids));
  return new Map(rows.map((r) => [r.id, r.name]));
}
