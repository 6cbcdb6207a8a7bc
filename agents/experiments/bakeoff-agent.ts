// The bake-off's agent: one loop, the same in both arms, that takes a task, derives each document's digest and
// hands the results over. Only where it gets work, what it can read of work already done and where it puts
// results differ, behind `Coordination`: arm B is Quorum's board (a claim with a lease and a fence, output
// stored item by item with `from`, submit), arm M the room (a task handed over as a REQUEST, taken and handed
// on as messages, results in the handoff). Every call it makes is the server function an agent's HTTP call
// reaches, counted as a read or a write.
import type { Db } from "../../db/client";
import type { Clock } from "../../domain/clock";
import { QuorumError } from "../../domain/errors";
import type { Principal } from "../../domain/principal";
import { advanceCursor } from "../../domain/rooms/cursor";
import { postMessage } from "../../domain/rooms/post-message";
import { listMessages } from "../../domain/rooms/list-messages";
import { listRooms } from "../../domain/rooms/rooms";
import { appendOutput } from "../../domain/tasks/append-output";
import { claimNextTask } from "../../domain/tasks/claim-next";
import { heartbeat } from "../../domain/tasks/heartbeat";
import { listOutput } from "../../domain/tasks/list-output";
import { submitTask } from "../../domain/tasks/submit";
import { type Document, derive } from "./bakeoff-corpus";

export type Arm = "M" | "B";

/** A task the agent holds: its number, documents, and the arm's own handle on it. */
export interface Assignment {
  number: number;
  documents: Document[];
  handle: BoardHandle | { room: string };
}

interface BoardHandle {
  taskId: string;
  fence: number;
  leaseExpiresAt: number | null;
  leaseMs: number;
}

/** The task moved on without this agent (its lease lapsed and another took it): its late write was refused. */
export class TaskLost extends Error {}

function boardHandle(task: Assignment): BoardHandle {
  if (!("taskId" in task.handle)) throw new Error(`task ${task.number} is not on the board`);
  return task.handle;
}

/** A write as the task's owner: a refusal that says it is no longer the owner ends its work on the task. */
async function asOwner<T>(task: Assignment, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof QuorumError && (error.code === "stale_fence" || error.code === "wrong_status")) throw new TaskLost(`task ${task.number}: ${error.code}`, { cause: error });
    throw error;
  }
}

export interface Coordination {
  /** The next task to work, or null when there is none for it now. */
  next(): Promise<Assignment | null>;
  /** The documents whose results are already where a successor can read them. */
  stored(task: Assignment): Promise<Set<string>>;
  /** After each document: store its result (B), or only keep it (M). */
  record(task: Assignment, index: number, result: Result): Promise<void>;
  /** Hand the results over. */
  finish(task: Assignment, results: Result[]): Promise<void>;
  /** Whether an empty `next` may change later (a lapsed lease returns a task to the board) or means the work is over. */
  waitsForMore: boolean;
}

export type Result = ReturnType<typeof derive>;
export interface Counters {
  reads: number;
  writes: number;
}

/** What the loop tells its supervisor, and asks it at a kill point. */
export interface AgentHooks {
  say(line: Record<string, unknown>): void;
  /** Reached point `k` of task `number` (before document k; its length: after the handoff): the supervisor may kill here. */
  checkpoint(number: number, k: number): Promise<void>;
  /** True once the supervisor wants it to stop looking for work. */
  stopping(): boolean;
  sleep(ms: number): Promise<void>;
}

/** The agent: the same in both arms. */
export async function runBakeoffAgent(coordination: Coordination, hooks: AgentHooks, counters: Counters): Promise<void> {
  for (;;) {
    if (hooks.stopping()) return;
    const task = await coordination.next();
    if (!task) {
      if (!coordination.waitsForMore) return;
      await hooks.sleep(200);
      continue;
    }
    try {
      await work(task);
    } catch (error) {
      if (!(error instanceof TaskLost)) throw error;
      hooks.say({ lost: task.number, ...counters });
    }
  }

  async function work(task: Assignment) {
    const done = await coordination.stored(task);
    hooks.say({ took: task.number, resumedFrom: done.size, ...counters });
    const results: Result[] = [];
    for (const [index, document] of task.documents.entries()) {
      if (done.has(document.name)) continue;
      await hooks.checkpoint(task.number, index);
      await hooks.sleep(document.workMs);
      const result = derive(document);
      results.push(result);
      await coordination.record(task, index, result);
      hooks.say({ wrote: task.number, item: index, ...counters });
    }
    await coordination.finish(task, results);
    hooks.say({ finished: task.number, ...counters });
    await hooks.checkpoint(task.number, task.documents.length);
  }
}

/** Documents as a task's description carries them (arm B), one JSON line each. */
export function documentsText(documents: Document[]): string {
  return documents.map((d) => JSON.stringify(d)).join("\n");
}

/** Arm B: the board. Claim-next (lease and fence), stored output read back on a resume, each result stored with `from`, submit. */
export function boardCoordination(db: Db, agent: Principal, clock: Clock, parentId: string, counters: Counters): Coordination {
  return {
    waitsForMore: true,
    async next() {
      const task = await claimNextTask(db, agent, clock, { parentId });
      if (!task) {
        counters.reads++;
        return null;
      }
      counters.writes++;
      const documents = task.description.split("\n").map((line) => JSON.parse(line) as Document);
      const leaseExpiresAt = task.leaseExpiresAt ? Date.parse(task.leaseExpiresAt) : null;
      const leaseMs = leaseExpiresAt === null ? 0 : leaseExpiresAt - clock.now().getTime();
      return { number: Number(task.title.replace(/\D+/g, "")), documents, handle: { taskId: task.id, fence: task.fence, leaseExpiresAt, leaseMs } };
    },
    async stored(task) {
      counters.reads++;
      const { items } = await listOutput(db, boardHandle(task).taskId, { limit: 1000 });
      return new Set(items.map((row) => (row.item as Result).name));
    },
    async record(task, index, result) {
      const handle = boardHandle(task);
      // Item i goes to position i + 1 whoever writes it: a repeated write is stored once.
      counters.writes++;
      await asOwner(task, () => appendOutput(db, agent, handle.taskId, { fence: handle.fence, from: index + 1, items: [result] }, clock));
      // The lease is renewed once half of it has gone (these tasks are short: it rarely is).
      if (handle.leaseExpiresAt !== null && handle.leaseExpiresAt - clock.now().getTime() < handle.leaseMs / 2) {
        counters.writes++;
        const renewed = await asOwner(task, () => heartbeat(db, agent, handle.taskId, { fence: handle.fence }, clock));
        handle.leaseExpiresAt = renewed.leaseExpiresAt ? Date.parse(renewed.leaseExpiresAt) : null;
      }
    },
    async finish(task, results) {
      const handle = boardHandle(task);
      counters.writes++;
      await asOwner(task, () =>
        submitTask(db, agent, handle.taskId, { fence: handle.fence, summary: `derived ${results.length} digests`, evidence: `${task.documents.length} documents` }, clock),
      );
    },
  };
}

const TAKING = "Taking task";
const DONE = "Done with task";

/**
 * Arm M: the room. Each task is a room with the dispatcher's REQUEST (its documents in the payload). An agent
 * takes one nobody has taken by saying so (the freshness gate refuses a second taker who had not read the
 * first), keeps its results in memory, and hands them over in its DONE. A successor reads what the rooms say:
 * a task someone took and never finished is someone's work in progress, since a message holds no lease to expire.
 */
export function roomCoordination(db: Db, agent: Principal, clock: Clock, prefix: string, start: number, counters: Counters): Coordination {
  const settled = new Set<string>();
  const post = async (room: string, body: string, extra: { payload?: Record<string, unknown>; performative?: "INFORM" | "DONE" } = {}) => {
    for (;;) {
      counters.writes++;
      try {
        return await postMessage(db, agent, room, { body, ...extra }, clock);
      } catch (error) {
        if (!(error instanceof QuorumError) || error.code !== "rate_limited") throw error;
        await new Promise((resolve) => setTimeout(resolve, Number(error.extra.retryAfterMs ?? 1_000)));
      }
    }
  };
  return {
    waitsForMore: false,
    async next() {
      counters.reads++;
      const rooms = (await listRooms(db)).filter((r) => r.name.startsWith(prefix)).map((r) => r.name);
      // Each agent starts looking at its own place in the list, so they do not all race for the first room.
      const order = [...rooms.slice(start % Math.max(1, rooms.length)), ...rooms.slice(0, start % Math.max(1, rooms.length))];
      for (const room of order) {
        if (settled.has(room)) continue;
        counters.reads++;
        const { items } = await listMessages(db, agent, room, { after: 0, limit: 500 });
        const request = items.find((m) => m.performative === "REQUEST");
        if (!request || items.some((m) => m.body.startsWith(TAKING) || m.body.startsWith(DONE))) {
          settled.add(room);
          continue;
        }
        counters.writes++;
        await advanceCursor(db, agent, room, { seq: items[items.length - 1].seq }, clock);
        const payload = request.payload as { task: number; documents: Document[] };
        try {
          await post(room, `${TAKING} ${payload.task}.`, { performative: "INFORM" });
        } catch (error) {
          // Someone spoke in the room since it read it: another agent took it first.
          if (error instanceof QuorumError && error.code === "stale") continue;
          throw error;
        }
        settled.add(room);
        return { number: payload.task, documents: payload.documents, handle: { room } };
      }
      return null;
    },
    // Messages say who took a task, never what it had done: a successor can read no result before the handoff.
    stored: async () => new Set(),
    record: async () => {},
    async finish(task, results) {
      const { room } = task.handle as { room: string };
      await post(room, `${DONE} ${task.number}: ${results.length} digests.`, { performative: "DONE", payload: { task: task.number, results } });
    },
  };
}
