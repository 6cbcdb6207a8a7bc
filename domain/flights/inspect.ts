// What a flight would start from on a repository, before the human starts it (the New flight dialog): the
// repository's top folder, its HEAD and branch, and the test and setup commands detected there. Read only.
import { z } from "zod";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import type { Principal } from "../principal";
import { parseRemote, syncRemote } from "./remote";
import { detectTestCommand, filesAt, inspectRepository, type RepositoryAtHead } from "./repository";
import { chooseSetup, type SetupChoice } from "./setup-command";

export const inspectRepositoryQuery = z.strictObject({
  /** The repository's folder on the team's machine, or its https URL, as the dialog's field holds it. */
  repo: z.string().trim().min(1, "name the repository's folder or URL").max(4096),
});

export interface RepositoryInspection extends RepositoryAtHead {
  /** The URL when the repository is a remote one (then `path` is the hub's clone of it, fetched just now). */
  remote: string | null;
  /** The command a flight would run its tests with; null when none is detected (the human must give one). */
  testCommand: string | null;
  /** The setup a flight would run first (its repository's `.quorum/setup`, or detected); null when it needs none. */
  setup: SetupChoice | null;
}

/** Humans only, as starting a flight is: it reads folders of the machine the team runs on, or fetches a remote. */
export async function inspectForFlight(db: Executor, caller: Principal, repo: string): Promise<RepositoryInspection> {
  if (caller.kind !== "human") throw fail.forbidden("flight", "only humans start flights, so only humans look at a repository for one");
  const remote = parseRemote(repo);
  const at = await inspectRepository(remote ? await syncRemote(db, remote) : repo);
  return { ...at, remote: remote?.url ?? null, testCommand: await detectTestCommand(at.path, at.head), setup: await chooseSetup(await filesAt(at.path, at.head), undefined) };
}
