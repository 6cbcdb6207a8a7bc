// The task board's state machine lives in domain/tasks/moves.ts: the database's guard reads the same table
// (its SQL is written from it), and a move outside it is refused whoever writes it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { TASK_STATUSES, tasks } from "../../db/schema";
import { makeReadyTask } from "../../test/fixtures/board";
import { makeHuman } from "../../test/helpers";
import { legalTaskMoves, taskMoveFunctionSql } from "./moves";

describe("the task board's state machine", () => {
  it("is the table the database's guard reads (run npm run db:moves after changing it)", () => {
    const file = readFileSync(join(import.meta.dirname, "..", "..", "db", "functions", "quorum_task_move_legal.sql"), "utf8");
    expect(file).toBe(taskMoveFunctionSql());
  });

  it("answers in the database exactly as the table does, for every pair of statuses", async () => {
    const db = getDb();
    const legal = new Set(legalTaskMoves().map((pair) => pair.join(" ")));
    for (const from of TASK_STATUSES) {
      for (const to of TASK_STATUSES) {
        if (from === to) continue;
        const [row] = await db.execute<{ legal: boolean }>(`select quorum_task_move_legal('${from}', '${to}') as legal`);
        expect(row.legal, `${from} → ${to}`).toBe(legal.has(`${from} ${to}`));
      }
    }
  });

  it("refuses a move outside it, even from a writer that skips the actions", async () => {
    const task = await makeReadyTask(await makeHuman());
    const refused = await getDb()
      .update(tasks)
      .set({ status: "done" })
      .where(eq(tasks.id, task.id))
      .then(
        () => null,
        (error: Error) => error,
      );
    expect((refused?.cause as Error | undefined)?.message).toMatch(/ready -> done is not a legal transition/);
    const [after] = await getDb().select({ status: tasks.status }).from(tasks).where(eq(tasks.id, task.id));
    expect(after.status).toBe("ready");
  });
});
