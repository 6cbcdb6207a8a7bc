// The path parameters of the REST routes, as named tool arguments (`:id` becomes `taskId`, `decisionId`, …).
import { z } from "zod";
import { taskRef } from "../../../domain/tasks/ref";
import { DEFAULT_ROOM } from "../../../domain/rooms/rooms";

export const roomParam = z.strictObject({ room: z.string().min(1).max(64).default(DEFAULT_ROOM) });
export const taskParam = z.strictObject({ taskId: taskRef });
export const decisionParam = z.strictObject({ decisionId: z.uuid() });
export const commitmentParam = z.strictObject({ commitmentId: z.uuid() });
export const reservationParam = z.strictObject({ reservationId: z.uuid() });
/** Omitted: the caller itself. */
export const agentParam = z.strictObject({ agentId: z.uuid().optional() });
