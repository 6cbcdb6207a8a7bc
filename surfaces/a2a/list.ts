// ListTasks over REST's GET /api/tasks (listTasks, with its own query schema): the board newest first, by
// context and A2A state, paged by task number. A state names board statuses (./state.ts); among ready tasks,
// the goals the team handed back are FAILED, not WORKING, so those two are told apart here.
import { type ListTasksRequest, type ListTasksResponse, type Task, TaskState } from "@a2a-js/sdk";
import type { Db } from "../../db/client";
import { fail } from "../../domain/errors";
import { handedBackGoals } from "../../domain/flights/handed-back";
import type { Principal } from "../../domain/principal";
import { countTasks, listTasks, listTasksQuery, taskContext, type ListTasksQuery } from "../../domain/tasks/list";
import { readTaskView, type TaskView } from "../../domain/tasks/view";
import { statusesOf } from "./state";
import { readA2ATask } from "./task";

/** A2A's page size: 50 unless asked, 1 to 100. */
const PAGE = { default: 50, max: 100 } as const;

function queryOf(params: ListTasksRequest, state: TaskState | null) {
  const pageSize = params.pageSize ?? PAGE.default;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > PAGE.max) throw fail.invalid("request", `pageSize is 1 to ${PAGE.max}`);
  if (params.pageToken && !/^\d{1,12}$/.test(params.pageToken)) throw fail.invalid("request", "pageToken is the nextPageToken a previous page came with");
  const parsed = listTasksQuery.safeParse({
    ...(state !== null ? { status: statusesOf(state).join(",") } : {}),
    ...(params.contextId ? { context: params.contextId } : {}),
    ...(params.statusTimestampAfter ? { updatedAfter: params.statusTimestampAfter } : {}),
    ...(params.pageToken ? { before: params.pageToken } : {}),
    limit: String(pageSize),
  });
  if (!parsed.success)
    throw fail.invalid("request", `invalid ListTasks filter: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`, { issues: parsed.error.issues });
  return { query: parsed.data, pageSize };
}

/** Whether a task passes the filters a query sets besides its status (for the handed-back goals, read apart). */
function matches(task: TaskView, query: ListTasksQuery): boolean {
  if (query.context && taskContext(task) !== query.context) return false;
  if (query.updatedAfter && Date.parse(task.updatedAt) <= Date.parse(query.updatedAfter)) return false;
  return true;
}

export async function listA2ATasks(db: Db, caller: Principal, params: ListTasksRequest, hubUrl: string): Promise<ListTasksResponse> {
  // UNSPECIFIED (0): no filter.
  const state = params.status ? params.status : null;
  const { query, pageSize } = queryOf(params, state);
  const read = (taskId: string) => readA2ATask(db, caller, taskId, { hubUrl, includeArtifacts: params.includeArtifacts ?? false });
  if (state !== null && statusesOf(state).length === 0) return { tasks: [], nextPageToken: "", pageSize, totalSize: 0 };
  // The handed-back goals are few (one per red flight at most): read them whole, filtered as the query says.
  const handedBack = [];
  for (const goal of await handedBackGoals(db)) {
    const task = await readTaskView(db, goal.taskId);
    if (matches(task, query)) handedBack.push(task);
  }
  if (state === TaskState.TASK_STATE_FAILED) {
    const page = handedBack.filter((t) => query.before === undefined || t.number < query.before).sort((a, b) => b.number - a.number);
    const items = page.slice(0, pageSize);
    return {
      tasks: await Promise.all(items.map((t) => read(t.id))),
      nextPageToken: page.length > pageSize ? String(items[items.length - 1].number) : "",
      pageSize,
      totalSize: handedBack.length,
    };
  }
  const { before: _before, limit: _limit, ...filters } = query;
  const [page, total] = await Promise.all([listTasks(db, query), countTasks(db, filters)]);
  const back = new Set(handedBack.map((t) => t.id));
  const items = state === TaskState.TASK_STATE_WORKING ? page.items.filter((t) => !back.has(t.id)) : page.items;
  const tasks: Task[] = [];
  for (const item of items) tasks.push(await read(item.id));
  return { tasks, nextPageToken: page.next === undefined ? "" : String(page.next), pageSize, totalSize: state === TaskState.TASK_STATE_WORKING ? total - back.size : total };
}
