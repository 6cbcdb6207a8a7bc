// What a coder taking a task over is told of the work stored on it: an earlier holder's run lost the task
// (its lease ran out, its process died, its model failed) after its tools had changed the worktree, which
// is still as it left it. Each tool result was stored on the task as an output item (agents/task-keeper.ts).
import type { Db } from "../../db/client";
import { listOutput } from "../../domain/tasks/list-output";
import type { TaskView } from "../../domain/tasks/view";
import type { StoredToolResult } from "../task-keeper";

/** The newest items shown, and at most this many characters of them: enough to pick up, not a transcript. */
const SHOWN_ITEMS = 30;
const SHOWN_CHARS = 6_000;

const isStoredToolResult = (item: unknown): item is StoredToolResult =>
  typeof item === "object" && item !== null && typeof (item as StoredToolResult).tool === "string" && typeof (item as StoredToolResult).observation === "string";

/** The work earlier holders stored on the task (written under an older fence), in words, or null when there is none. */
export async function storedWorkOf(db: Db, task: Pick<TaskView, "id" | "fence" | "outputCount">): Promise<string | null> {
  if (task.outputCount === 0) return null;
  const { items } = await listOutput(db, task.id, { after: Math.max(0, task.outputCount - SHOWN_ITEMS) });
  const earlier = items.filter((row) => row.fence < task.fence && isStoredToolResult(row.item)).map((row) => row.item as StoredToolResult);
  if (earlier.length === 0) return null;
  const lines: string[] = [];
  let used = 0;
  for (const item of earlier.reverse()) {
    const line = `- turn ${item.turn} ${item.tool}${item.isError ? " (failed)" : ""}: ${item.observation.slice(0, 600)}`;
    if (used + line.length > SHOWN_CHARS) break;
    lines.unshift(line);
    used += line.length;
  }
  return `An earlier run on this task stopped before it finished. Its edits are still in your working directory; its last tool results, oldest first:\n${lines.join("\n")}`;
}
