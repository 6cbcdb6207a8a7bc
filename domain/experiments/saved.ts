// The experiments' saved results: `quorum experiment` writes each table as Markdown with its JSON beside it in
// one folder ($QUORUM_HOME/experiments/, or QUORUM_EXPERIMENTS_DIR: runs made on this hub only), and GET
// /api/experiments lists the JSON files, newest first. Nothing here touches the hub's database: experiments
// run on a scratch database of their own and only their tables are kept.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EXPERIMENT_CATALOG, EXPERIMENT_NAMES, experimentReport, type ExperimentName, type ExperimentReport, markdownOf } from "./report";

export interface SavedExperiment extends ExperimentReport {
  /** The Markdown file's name in the folder (its JSON has the same name, ending .json). */
  file: string;
}

export interface SavedExperiments {
  items: SavedExperiment[];
  /** Every experiment `quorum experiment` runs, saved or not: its name, what it measures, its flags. */
  experiments: { name: ExperimentName; summary: string; flags: string }[];
  /** Files in the folder that end .json but are no experiment's result (said on the page, never fatal). */
  unreadable: string[];
}

/** The folder's name for a result: the experiment, the day it ran and its parameters, so a rerun with the same ones replaces it. */
export function fileNameOf(report: ExperimentReport): string {
  const parameters = Object.entries(report.parameters).map(([name, value]) => `${name}-${value}`);
  const slug = [report.experiment, report.ranAt.slice(0, 10), ...parameters].join("-").replace(/[^A-Za-z0-9.-]+/g, "_");
  return `${slug}.md`;
}

/** Writes the Markdown and its JSON; returns the Markdown file's path. */
export function saveExperiment(folder: string, report: ExperimentReport): string {
  mkdirSync(folder, { recursive: true });
  const file = fileNameOf(report);
  writeFileSync(join(folder, file), markdownOf(report));
  writeFileSync(join(folder, file.replace(/\.md$/, ".json")), `${JSON.stringify(report, null, 2)}\n`);
  return join(folder, file);
}

/** Every result saved in the folder, newest first; a folder that does not exist yet holds none. */
export function listSavedExperiments(folder: string): SavedExperiments {
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith(".json"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { items: [], unreadable: [], experiments: catalog() };
    throw error;
  }
  const items: SavedExperiment[] = [];
  const unreadable: string[] = [];
  for (const name of names) {
    let parsed: ReturnType<typeof experimentReport.safeParse>;
    try {
      parsed = experimentReport.safeParse(JSON.parse(readFileSync(join(folder, name), "utf8")));
    } catch {
      unreadable.push(name);
      continue;
    }
    if (parsed.success) items.push({ ...parsed.data, file: name.replace(/\.json$/, ".md") });
    else unreadable.push(name);
  }
  items.sort((a, b) => b.ranAt.localeCompare(a.ranAt) || a.file.localeCompare(b.file));
  return { items, unreadable: unreadable.sort(), experiments: catalog() };
}

function catalog(): SavedExperiments["experiments"] {
  return EXPERIMENT_NAMES.map((name) => ({ name, ...EXPERIMENT_CATALOG[name] }));
}
