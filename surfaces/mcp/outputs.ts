// The output schemas tools declare: the fields an agent relies on, each object open to the rest of the view.
import { z } from "zod";

const id = z.string();
const when = z.string().nullable();
const open = <S extends z.ZodRawShape>(shape: S) => z.looseObject(shape);
export const page = <S extends z.ZodType>(item: S) => open({ items: z.array(item), next: z.number().optional() });

export const principalOut = open({ id, kind: z.string(), name: z.string(), role: z.string().nullable() });
export const rosterOut = open({ id, kind: z.string(), name: z.string(), present: z.boolean() });

export const roomOut = open({ name: z.string(), lastSeq: z.number() });
export const messageOut = open({
  id: z.number(),
  seq: z.number(),
  room: z.string(),
  senderId: id,
  senderName: z.string(),
  body: z.string(),
  performative: z.string().nullable(),
  to: id.nullable(),
  taskId: id.nullable(),
  createdAt: z.string(),
});
export const cursorOut = open({ room: z.string(), seq: z.number(), lastSeq: z.number(), moved: z.boolean() });
export const digestOut = open({});
export const flushOut = open({ flushed: z.array(z.number()), dropped: z.number() });

export const taskOut = open({
  id,
  number: z.number(),
  title: z.string(),
  status: z.string(),
  ownerId: id.nullable(),
  approverId: id,
  fence: z.number(),
  leaseExpiresAt: when,
  outputCount: z.number(),
});
export const claimOut = open({ task: taskOut.nullable() });
export const taskDetailOut = open({ task: taskOut });
export const outputItemOut = open({ seq: z.number(), item: z.unknown(), fence: z.number() });

export const decisionOut = open({
  id,
  number: z.number(),
  question: z.string(),
  options: z.array(z.string()),
  status: z.string(),
  outcome: z.string().nullable(),
  timeboxAt: z.string(),
});
export const ballotOut = open({ id, option: z.string(), decision: decisionOut });

export const commitmentOut = open({ id, number: z.number(), ownerId: id, what: z.string(), status: z.string(), dueAt: when });
export const graphOut = open({ nodes: z.array(open({ id })), edges: z.array(open({})), criticalPath: z.array(z.string()) });

export const lessonOut = open({ id, number: z.number(), text: z.string() });
export const usageOut = open({ eventId: z.number(), tokens: z.number() });
export const flightOut = open({ id, number: z.number(), status: z.string(), goalTask: open({ id, number: z.number() }) });
export const principleOut = open({ id, text: z.string(), active: z.boolean() });

export const reservationOut = open({
  id,
  fence: z.number(),
  holderId: id,
  patterns: z.array(z.string()),
  mode: z.string(),
  status: z.string(),
  expiresAt: z.string(),
});
const holdOut = open({ path: z.string(), pattern: z.string(), holderName: z.string(), mode: z.string(), expiresAt: z.string() });
export const pathCheckOut = open({ ok: z.boolean(), blocked: z.array(holdOut), shared: z.array(holdOut) });

export const eventsOut = open({
  items: z.array(open({ id: z.number(), kind: z.string(), actor: id.nullable(), taskId: id.nullable(), room: z.string().nullable(), forMe: z.boolean() })),
  next: z.number(),
  timedOut: z.boolean(),
});

export const diagnosisOut = open({
  label: z.string(),
  events: z.number(),
  findings: z.array(open({ mode: z.string(), name: z.string(), severity: z.string(), sentence: z.string(), eventIds: z.array(z.number()) })),
});
