// npm run db:moves: writes db/functions/quorum_task_move_legal.sql from the task board's state machine
// (domain/tasks/moves.ts), so the database's guard and the actions' checks read one table.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { taskMoveFunctionSql } from "../domain/tasks/moves";

const path = join(import.meta.dirname, "..", "db", "functions", "quorum_task_move_legal.sql");
writeFileSync(path, taskMoveFunctionSql());
console.log(`wrote ${path}`);
