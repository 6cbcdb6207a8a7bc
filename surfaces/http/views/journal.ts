// The journal as clients read it: the event stream's pages, full entries, export lines and archived
// months.
import { z } from "zod";
import type { EventsPage } from "@/domain/journal/wait-for-events";
import type { JournalEntry } from "@/domain/journal/list";
import type { JournalArchiveView } from "@/domain/retention/archives";
import { open, uuid, when, int } from "./base";

export const events = open({
  items: z.array(
    open({
      id: int,
      t: when,
      kind: z.string(),
      actor: uuid.nullable(),
      actorName: z.string().nullable(),
      taskId: uuid.nullable(),
      room: z.string().nullable(),
      forMe: z.boolean(),
    }),
  ),
  next: int,
  timedOut: z.boolean(),
}) satisfies z.ZodType<EventsPage>;
export const journalEntry = open({
  id: int,
  v: int,
  t: when,
  kind: z.string(),
  actor: uuid.nullable(),
  actorName: z.string().nullable(),
  runId: z.string().nullable(),
  taskId: uuid.nullable(),
  turn: int.nullable(),
  data: z.unknown(),
}) satisfies z.ZodType<JournalEntry>;

/** A line of a journal export: the event without its actor's name. */
export const exportLine = journalEntry.omit({ actorName: true });

/** An archived month of the journal (domain/retention/archives.ts). */
export const journalArchive = open({
  month: z.string(),
  from: when,
  to: when,
  events: int,
  archivedAt: when,
  file: z.string().nullable(),
  sha256: z.string(),
}) satisfies z.ZodType<JournalArchiveView>;
