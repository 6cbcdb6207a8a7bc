// `quorum experiment NAME [--tasks N] [--seed S] …`: runs one of the seeds' experiments on a scratch database of
// its own (never the hub's: a database created for the run on DATABASE_URL's server and dropped after it, or
// an embedded Postgres in a temporary folder), prints its table as Markdown with progress on stderr, and saves
// it with its JSON beside it in the hub's QUORUM_HOME (domain/config.ts's experimentsFolder) for the Lab's Experiments
// page. Ctrl-C stops the experiment and everything it started.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { connect, withDatabase } from "../db/client";
import { startEmbeddedPostgres } from "../db/embedded";
import { runMigrations } from "../db/migrate";
import { databaseUrlSetting, experimentsFolder } from "../domain/config";
import { contextOf } from "../domain/context";
import { markdownOf, type ExperimentReport } from "../domain/experiments/report";
import { saveExperiment } from "../domain/experiments/saved";
import { EXPERIMENTS, experimentNamed } from "../agents/experiments/registry";
import type { ExperimentContext, ScratchDatabase } from "../agents/experiments/experiment";

const QUORUM_FOLDER = fileURLToPath(new URL("..", import.meta.url));

export const EXPERIMENT_USAGE = [
  "  quorum experiment NAME [--tasks N] [--seed S] …",
  "                                        run a seed's experiment on a scratch database; print its table and save it in $QUORUM_HOME/experiments/",
  ...EXPERIMENTS.map((e) => `      ${e.name} ${e.flags}\n          ${e.summary}`),
].join("\n");

/** The flags every experiment may take; each reads the ones it knows, and names any other as unknown. */
const FLAGS = {
  tasks: { type: "string" },
  seed: { type: "string" },
  turns: { type: "string" },
  workers: { type: "string" },
  uv: { type: "string" },
  w: { type: "string" },
  ur: { type: "string" },
  p: { type: "string" },
  f: { type: "string" },
} as const;

/** The command that runs it again, every parameter spelt out. */
function commandOf(name: string, parameters: Record<string, string | number>): string {
  return ["npm run quorum -- experiment", name, ...Object.entries(parameters).map(([flag, value]) => `--${flag} ${value}`)].join(" ");
}

/** A database for this run only, migrated; `drop` removes it (and the embedded server and its folder, when it made one). */
async function scratchDatabase(progress: (line: string) => void): Promise<{ url: string; drop(): Promise<void> }> {
  const server = databaseUrlSetting();
  if (server) {
    const name = `quorum_experiment_${process.pid}_${Date.now()}`;
    const admin = postgres(withDatabase(server, "postgres"), { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database ${name}`);
    } catch (error) {
      await admin.end();
      throw new Error(`could not create a scratch database on DATABASE_URL's server (the experiment never uses the hub's own): ${(error as Error).message}`, { cause: error });
    }
    const url = withDatabase(server, name);
    progress(`scratch database ${name} on DATABASE_URL's server: migrating`);
    await runMigrations(url);
    return {
      url,
      async drop() {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const home = mkdtempSync(join(tmpdir(), "quorum-experiment-pg-"));
  // As root, Postgres runs as the `postgres` user, which must pass through the folder.
  chmodSync(home, 0o755);
  progress(`starting a scratch Postgres in ${home}`);
  const embedded = await startEmbeddedPostgres(home);
  await embedded.migrate();
  return {
    url: embedded.url,
    async drop() {
      await embedded.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Runs the experiment; returns the exit code. `print` takes the table, `progress` the running commentary. */
export async function experimentCommand(argv: string[], print: (text: string) => void = console.log, progress: (line: string) => void = stderrProgress()): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof FLAGS }>>;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: FLAGS });
  } catch (error) {
    print(`quorum: ${(error as Error).message}\n${EXPERIMENT_USAGE}`);
    return 1;
  }
  const [name, ...extra] = parsed.positionals;
  const experiment = name ? experimentNamed(name) : undefined;
  if (!experiment || extra.length) {
    print(`${name && !experiment ? `quorum: no experiment named '${name}'\n` : ""}${EXPERIMENT_USAGE}`);
    return 1;
  }
  const given = Object.fromEntries(Object.entries(parsed.values).filter(([, value]) => value !== undefined));
  const parameters = experiment.parameters.safeParse(given);
  if (!parameters.success) {
    print(`quorum: ${parameters.error.issues.map((i) => (i.path.length ? `--${i.path.join(".")}: ${i.message}` : i.message)).join("; ")}\n${EXPERIMENT_USAGE}`);
    return 1;
  }
  const started = Date.now();
  const ranAt = new Date(started).toISOString();
  const scratch = mkdtempSync(join(tmpdir(), `quorum-experiment-${experiment.name}-`));
  chmodSync(scratch, 0o755);
  let database: { url: string; drop(): Promise<void> } | undefined;
  let connection: ReturnType<typeof connect> | undefined;
  // Ctrl-C: the driver stops its workers and returns; the scratch database is dropped below either way.
  const controller = new AbortController();
  const interrupt = () => {
    progress("interrupted: stopping what the experiment started");
    controller.abort();
  };
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);
  try {
    let scratchDb: ScratchDatabase | null = null;
    if (experiment.database) {
      database = await scratchDatabase(progress);
      connection = connect(database.url, { max: 6 });
      scratchDb = { server: contextOf(connection), url: database.url };
    }
    const ctx: ExperimentContext = { database: scratchDb, scratch, quorumFolder: QUORUM_FOLDER, progress, signal: controller.signal };
    const table = await experiment.run(ctx, parameters.data);
    const report: ExperimentReport = {
      experiment: experiment.name,
      ...table,
      ranAt,
      seconds: (Date.now() - started) / 1000,
      command: commandOf(experiment.name, table.parameters),
    };
    print(markdownOf(report));
    progress(`saved ${saveExperiment(experimentsFolder(), report)}`);
    return 0;
  } finally {
    process.removeListener("SIGINT", interrupt);
    process.removeListener("SIGTERM", interrupt);
    await connection?.close();
    await database?.drop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Progress lines on stderr, each with the minutes and seconds since the command began. */
function stderrProgress(): (line: string) => void {
  const began = Date.now();
  return (line) => {
    const s = Math.round((Date.now() - began) / 1000);
    process.stderr.write(`[${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}] ${line}\n`);
  };
}
