// Adds a flight of a hub to the labelled set, labelled by its human's answers to the monitor's findings:
// `DATABASE_URL=… npx tsx bench/label-flight.ts <flight number> <name> "<story>"`. A finding answered "not a
// failure" is a false alarm (not planted); every other mode found stays planted; no findings makes it careful.
import { writeFileSync } from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import { connect } from "../db/client";
import { events, flights } from "../db/schema";
import { diagnose } from "../domain/diagnosis/diagnose";
import { flightJournal } from "../domain/diagnosis/scope";

const [number, name, story = ""] = process.argv.slice(2);
if (!number || !name || !/^[\w.-]+$/.test(name)) {
  console.error('usage: npx tsx bench/label-flight.ts <flight number> <file name> "<what happened>"');
  process.exit(2);
}
const { db, close } = connect(process.env.DATABASE_URL ?? "");
try {
  const [flight] = await db
    .select({ id: flights.id })
    .from(flights)
    .where(eq(flights.number, Number(number)));
  if (!flight) throw new Error(`no flight ${number}`);
  const { events: journal, names } = await flightJournal(db, flight.id);
  const answers = await db
    .select({ data: events.data })
    .from(events)
    .where(and(eq(events.kind, "FindingAnswered"), sql`${events.data}->>'flightId' = ${flight.id}`));
  const notFailures = new Set(
    answers
      .map((a) => a.data as { mode: string; verdict: string })
      .filter((a) => a.verdict === "not_a_failure")
      .map((a) => a.mode),
  );
  const planted = [...new Set(diagnose(journal, names).map((f) => f.mode))].filter((mode) => !notFailures.has(mode)).sort();
  const tasks = new Set(journal.filter((e) => e.kind === "TaskClaimed").map((e) => e.taskId)).size;
  const known = { principals: Object.fromEntries(names.principals ?? []), tasks: Object.fromEntries(names.tasks ?? []) };
  const file = new URL(`./flights/${name}.json`, import.meta.url);
  writeFileSync(file, `${JSON.stringify({ name, story, careful: planted.length === 0, tasks, planted, names: known, events: journal })}\n`);
  console.log(`wrote bench/flights/${name}.json: ${planted.length ? `planted ${planted.join(", ")}` : "careful"}`);
} finally {
  await close();
}
