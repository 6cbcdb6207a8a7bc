// What an experiment is to `quorum experiment`: a name, its parameters (parsed from the command's flags, each with
// its default) and a driver that returns a table. The CLI gives a driver a scratch database of its own (never
// the hub's: bin/experiment.ts makes and drops it), a scratch folder and a way to say how far it has got.
import { z } from "zod";
import type { ServerContext } from "../../domain/context";
import type { ExperimentName, ExperimentTable } from "../../domain/experiments/report";

export interface ScratchDatabase {
  server: ServerContext;
  /** Its URL, handed to the worker processes an experiment starts. */
  url: string;
}

export interface ExperimentContext {
  /** The scratch database; null for an experiment that needs none. */
  database: ScratchDatabase | null;
  /** A folder of the run's own (repositories, flight clones), removed after it. */
  scratch: string;
  /** Quorum's folder, where the worker processes an experiment starts run from. */
  quorumFolder: string;
  /** One line of progress (the CLI prints it to stderr with the time since the start). */
  progress(line: string): void;
  /** Aborted on Ctrl-C: the driver stops what it started and returns (or throws) soon after. */
  signal?: AbortSignal;
}

export type Parameters = Record<string, string | number>;

/** `--seed S`: what every seeded experiment draws from (1 by default, so a bare command reproduces the saved table). */
export const seedParameter = z.coerce
  .number()
  .int()
  .min(0)
  .max(2 ** 32 - 1)
  .default(1);

export interface Experiment<P extends Parameters = Parameters> {
  name: ExperimentName;
  /** One line for the usage (domain/experiments/report.ts's catalog). */
  summary: string;
  /** The flags it takes, as the usage shows them. */
  flags: string;
  /** Reads the command's flags (strings, or absent for the default) into the parameters the table records. */
  parameters: z.ZodType<P>;
  database: boolean;
  run(ctx: ExperimentContext, parameters: P): Promise<ExperimentTable>;
}

/** The scratch database a driver needs, or a plain error when the caller gave none. */
export function databaseOf(ctx: ExperimentContext): ScratchDatabase {
  if (!ctx.database) throw new Error("this experiment runs on a scratch database, and none was given");
  return ctx.database;
}
