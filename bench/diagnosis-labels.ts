// The MAST monitor against the labelled set (bench/flights/, recorded by the scenario tests with
// QUORUM_RECORD_FLIGHTS; test/fixtures/recorded-flights.ts): each flight's journal is diagnosed as the live monitor
// diagnoses it, and what it finds is set beside what a person labelled it — careful (nothing to find) or sloppy
// (these modes planted). Per mode: a flight counts once, found or not. `npx tsx bench/diagnosis-labels.ts` prints it.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { diagnose } from "../domain/diagnosis/diagnose";
import type { JournalRecord } from "../domain/journal/load";

interface Recorded {
  name: string;
  story: string;
  careful: boolean;
  tasks: number;
  planted: string[];
  names: { principals: Record<string, string>; tasks: Record<string, number> };
  events: (Omit<JournalRecord, "t"> & { t: string })[];
}

export interface LabelledResult {
  flights: { name: string; careful: boolean; tasks: number; planted: string[]; found: string[] }[];
  modes: { mode: string; truePositives: number; falsePositives: number; falseNegatives: number }[];
}

const FOLDER = fileURLToPath(new URL("./flights/", import.meta.url));

export function diagnoseLabelledSet(folder = FOLDER): LabelledResult {
  const flights = readdirSync(folder)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => {
      const recorded = JSON.parse(readFileSync(join(folder, file), "utf8")) as Recorded;
      const events = recorded.events.map((e) => ({ ...e, t: new Date(e.t) }));
      const names = { principals: new Map(Object.entries(recorded.names.principals)), tasks: new Map(Object.entries(recorded.names.tasks)) };
      const found: string[] = [...new Set(diagnose(events, names).map((f) => f.mode))].sort();
      return { name: recorded.name, careful: recorded.careful, tasks: recorded.tasks, planted: [...recorded.planted].sort(), found };
    });
  const modes = [...new Set(flights.flatMap((f) => [...f.planted, ...f.found]))].sort().map((mode) => ({
    mode,
    truePositives: flights.filter((f) => f.planted.includes(mode) && f.found.includes(mode)).length,
    falsePositives: flights.filter((f) => !f.planted.includes(mode) && f.found.includes(mode)).length,
    falseNegatives: flights.filter((f) => f.planted.includes(mode) && !f.found.includes(mode)).length,
  }));
  return { flights, modes };
}

const ratio = (n: number, d: number) => (d === 0 ? "—" : (n / d).toFixed(2));

export function labelledSetReport(result = diagnoseLabelledSet()): string {
  const { flights, modes } = result;
  const careful = flights.filter((f) => f.careful);
  const cried = careful.filter((f) => f.found.length > 0);
  const sloppy = flights.filter((f) => !f.careful);
  const caught = sloppy.filter((f) => f.planted.every((mode) => f.found.includes(mode)));
  const lines = [
    `${flights.length} recorded flights (bench/flights/): ${careful.length} careful, ${sloppy.length} sloppy; ${flights.filter((f) => f.tasks > 1).length} of several tasks.`,
    `Careful flights with a finding (false alarms): ${cried.length} of ${careful.length}${cried.length ? ` (${cried.map((f) => `${f.name}: ${f.found.join(", ")}`).join("; ")})` : ""}.`,
    `Sloppy flights with every planted mode found: ${caught.length} of ${sloppy.length}.`,
    "",
    "| mode | planted in | found in | true pos. | false pos. | false neg. | precision | recall |",
    "|---|---|---|---|---|---|---|---|",
    ...modes.map(
      (m) =>
        `| ${m.mode} | ${m.truePositives + m.falseNegatives} | ${m.truePositives + m.falsePositives} | ${m.truePositives} | ${m.falsePositives} | ${m.falseNegatives} | ${ratio(m.truePositives, m.truePositives + m.falsePositives)} | ${ratio(m.truePositives, m.truePositives + m.falseNegatives)} |`,
    ),
  ];
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(labelledSetReport());
