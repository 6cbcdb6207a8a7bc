// Where a fork's continuation works: a scratch folder holding the files the run started from — its flight's
// clone at the tree the run recorded when it began (read with `git archive`: the clone is only read), or a
// copy of a folder the caller names — never the flight's worktrees, never the user's repository.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Db } from "../db/client";
import { fail } from "../domain/errors";
import { flightOfTask } from "../domain/flights/place";
import { cloneAt, gitSyncBytes } from "../domain/host-git";
import type { JournalRecord } from "../domain/journal/load";
import { payloadOf } from "../domain/journal/payloads";

export interface ForkWorkspace {
  root: string;
  /** In words: what the scratch folder holds. */
  described: string;
  /** The argv run_tests runs there: the flight's own command, else the default it was given. */
  testCommand: string[];
  dispose(): void;
}

export interface WorkspaceOptions {
  /** The folder the run started from, for a run that recorded no tree (outside a flight, or older). */
  root?: string;
  /** run_tests's command outside a flight (the worker's QUORUM_TEST_COMMAND, else `node --test`). */
  defaultTestCommand: string[];
}

export async function forkWorkspace(db: Db, events: readonly JournalRecord[], options: WorkspaceOptions): Promise<ForkWorkspace> {
  const started = events.find((e) => e.kind === "RunStarted");
  if (!started) throw fail.conflict("run", "not_replayable", "the run's journal has no RunStarted: there is nothing to fork");
  const config = payloadOf(started, "RunStarted");
  const runId = started.runId ?? "the run";
  const scratch = mkdtempSync(join(tmpdir(), "quorum-fork-"));
  const dispose = () => rmSync(scratch, { recursive: true, force: true });
  try {
    const flight = started.taskId ? await flightOfTask(db, started.taskId) : null;
    if (config.workspace && flight) {
      const { repo, number, testCommand } = flight.place;
      const archive = gitSyncBytes(cloneAt(repo), ["archive", "--format=tar", config.workspace.tree]);
      execFileSync("tar", ["-x", "-C", scratch], { input: archive });
      return {
        root: scratch,
        described: `a scratch copy of flight ${number}'s files as ${runId} found them (tree ${config.workspace.tree.slice(0, 10)} in the flight's clone)`,
        testCommand: testCommand ? ["sh", "-c", testCommand] : options.defaultTestCommand,
        dispose,
      };
    }
    if (options.root) {
      cpSync(options.root, scratch, { recursive: true });
      return {
        root: scratch,
        described: `a scratch copy of ${options.root}`,
        testCommand: flight?.place.testCommand ? ["sh", "-c", flight.place.testCommand] : options.defaultTestCommand,
        dispose,
      };
    }
  } catch (error) {
    dispose();
    if ((error as { status?: number }).status !== undefined && "stderr" in (error as object)) {
      throw fail.conflict(
        "run",
        "not_forkable",
        `the files ${runId} started from could not be read from its flight's clone: ${String((error as { stderr: unknown }).stderr)
          .trim()
          .slice(0, 300)}`,
        {},
        undefined,
        error,
      );
    }
    throw error;
  }
  dispose();
  throw fail.conflict(
    "run",
    "not_forkable",
    `${runId} kept no record of the files it started from (it ran outside a flight, or before runs recorded them): name the folder it started from to fork it`,
  );
}
