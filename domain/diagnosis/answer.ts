// A human's answer to a finding of the MAST monitor: "seen" (acknowledged, with a note) or "not a failure". The
// answer is journalled (FindingAnswered: the labelled examples a detector is measured against come from these), and
// an answered finding leaves what waits for the human (domain/desk/waiting.ts). A second answer replaces the first.
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { events, findingAnswers, FINDING_VERDICTS } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import { payloadOf } from "../journal/payloads";
import type { Principal } from "../principal";
import { textField } from "../tasks/text";

export const answerFindingInput = z.strictObject({
  /** The finding's key as the desk and the Diagnosis panel name it (`FM-3.2:1234`). */
  key: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^FM-\d\.\d+:[\w:.-]+$/, "a finding's key, as GET /api/diagnosis and the desk give it (FM-3.2:1234)"),
  verdict: z.enum(FINDING_VERDICTS),
  note: textField(2_000).optional(),
});
export type AnswerFindingInput = z.infer<typeof answerFindingInput>;

export interface FindingAnswer {
  key: string;
  flightId: string;
  mode: string;
  verdict: (typeof FINDING_VERDICTS)[number];
  note: string | null;
  answeredBy: string;
  answeredAt: string;
}

export async function answerFinding(db: Db, caller: Principal, input: AnswerFindingInput, clock: Clock): Promise<FindingAnswer> {
  if (caller.kind !== "human") throw fail.forbidden("diagnosis", "only a human answers a finding");
  const now = clock.now();
  return db.transaction(async (tx) => {
    // The finding as the monitor journalled it, at any severity (a key grows `@high` as it gets worse).
    const [found] = await tx
      .select({ id: events.id, t: events.t, kind: events.kind, data: events.data })
      .from(events)
      .where(and(eq(events.kind, "DiagnosisFound"), sql`(${events.data}->>'key' = ${input.key} or ${events.data}->>'key' like ${`${input.key}@%`})`))
      .orderBy(desc(events.id))
      .limit(1);
    if (!found) throw fail.notFound("diagnosis", `no finding '${input.key}'`);
    const finding = payloadOf(found, "DiagnosisFound");
    const answer = {
      key: input.key,
      flightId: finding.flightId,
      verdict: input.verdict,
      note: input.note || null,
      answeredBy: caller.id,
      answeredAt: now,
    };
    await tx
      .insert(findingAnswers)
      .values(answer)
      .onConflictDoUpdate({ target: findingAnswers.key, set: { verdict: answer.verdict, note: answer.note, answeredBy: answer.answeredBy, answeredAt: now } });
    await appendEvent(tx, {
      kind: "FindingAnswered",
      actor: caller.id,
      t: now,
      data: { key: input.key, flightId: finding.flightId, mode: finding.mode, severity: finding.severity, verdict: input.verdict, note: answer.note },
    });
    return { ...answer, mode: finding.mode, answeredAt: now.toISOString() };
  });
}

/** The keys of the findings a human has answered, among `keys`. */
export async function answeredKeys(db: Executor, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: findingAnswers.key })
    .from(findingAnswers)
    .where(inArray(findingAnswers.key, [...keys]));
  return new Set(rows.map((r) => r.key));
}
