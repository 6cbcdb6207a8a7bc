// `quorum diagnose --flight N | --task T | --run R | --since EVENT|TIME | RUN | TASK`: the MAST failure modes in
// that scope of the journal (the operator's own database: every event, as a human reads it).
import { parseArgs } from "node:util";
import type { Executor } from "../db/client";
import { QuorumError } from "../domain/errors";
import { diagnoseScope, diagnosisQuery, type DiagnosisQuery } from "../domain/diagnosis/scope";
import { withConnection } from "./database";

export const DIAGNOSE_USAGE = `  quorum diagnose --flight N | --task T | --run R | --since EVENT|TIME | RUN | TASK
                                        name the MAST failure modes (FM-1.1 … FM-3.3) in that part of the journal; exit 2 if any`;

/** A bare target: a task by id or number (#12), else a run. */
function queryOf(values: Record<string, string | undefined>, target: string | undefined): unknown {
  const named = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  if (target === undefined) return named;
  return { ...named, ...(/^(#\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.test(target) ? { task: target } : { run: target }) };
}

/** Prints one line per finding; exit code 0 when clean, 2 when something was found, 1 when there is nothing to read. */
export async function diagnoseCommand(db: Executor, query: DiagnosisQuery, print: (line: string) => void = console.log): Promise<number> {
  let view: Awaited<ReturnType<typeof diagnoseScope>>;
  try {
    view = await diagnoseScope(db, undefined, query);
  } catch (error) {
    if (!(error instanceof QuorumError) || error.status !== 404) throw error;
    print(`quorum: ${error.message}`);
    return 1;
  }
  if (view.events === 0) {
    print(`quorum: nothing in the journal ${view.label}`);
    return 1;
  }
  const more = view.truncated ? ` (the first ${view.events}: go on with --since ${view.through})` : "";
  if (view.findings.length === 0) {
    print(`${view.label}: clean — no failure mode in ${view.events} events${more}`);
    return 0;
  }
  print(`${view.label}: ${view.findings.length} finding${view.findings.length === 1 ? "" : "s"} in ${view.events} events${more}`);
  for (const f of view.findings) print(`- ${f.mode} ${f.name} (${f.severity}; ${f.categoryName.toLowerCase()}): ${f.sentence} (events ${f.eventIds.join(", ")})`);
  return 2;
}

export async function diagnoseMain(argv: string[], print: (line: string) => void = console.log): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { flight: { type: "string" }, task: { type: "string" }, run: { type: "string" }, since: { type: "string" } },
  });
  const parsed = diagnosisQuery.safeParse(queryOf(values, positionals[0]));
  if (!parsed.success || positionals.length > 1) {
    console.error(`usage:\n${DIAGNOSE_USAGE}\n${parsed.error ? parsed.error.issues.map((i) => `  ${i.path.join(".") || "scope"}: ${i.message}`).join("\n") : ""}`);
    return 1;
  }
  return withConnection(({ db }) => diagnoseCommand(db, parsed.data, print));
}
