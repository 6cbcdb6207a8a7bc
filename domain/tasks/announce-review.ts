// A human's verdict is news to the team: Quorum says it in the room of the task's thread (an agent's
// verdict needs no echo — the reviewer posts its own ACCEPT or REJECT).
import { desc, eq } from "drizzle-orm";
import { messages } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { getSystemPrincipal } from "../principals/create-principal";
import type { Principal } from "../principal";
import { postMessage } from "../rooms/post-message";
import type { TaskView } from "./view";
import { quoted } from "../quoted-text";

/** The room where a task was last discussed, else the team's room. */
async function roomOfTask(db: Db, taskId: string): Promise<string> {
  const [latest] = await db.select({ room: messages.room }).from(messages).where(eq(messages.taskId, taskId)).orderBy(desc(messages.id)).limit(1);
  return latest?.room ?? "general";
}

export async function announceVerdict(db: Db, reviewer: Principal, task: TaskView, verdict: "accept" | "reject", reason: string | null, clock: Clock): Promise<void> {
  const system = await getSystemPrincipal(db);
  const room = await roomOfTask(db, task.id);
  // The title in quotes: one that ends in a full stop must not run into the sentence around it.
  const named = `#${task.number} ${quoted(task.title)}`;
  const what = verdict === "accept" ? `accepted ${named}: it is done` : `sent ${named} back to ${task.ownerName ?? "its owner"}`;
  const body = `${reviewer.name} ${what}${reason ? `. Reason: ${quoted(reason, 400)}` : "."}`;
  await postMessage(db, system, room, { body: body.slice(0, 4000), performative: "INFORM", taskId: task.id }, clock);
}
