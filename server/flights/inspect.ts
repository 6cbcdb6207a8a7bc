// What a flight would start from on a repository, before the human starts it (the New flight dialog): the
// repository's top folder, its HEAD and branch, and the test command detected there. Read only.
import { z } from "zod";
import { fail } from "../errors";
import type { Principal } from "../principal";
import { detectTestCommand, inspectRepository, type RepositoryAtHead } from "./repository";

export const inspectRepositoryQuery = z.strictObject({
  /** The repository's folder on the team's machine, as the dialog's path field holds it. */
  repo: z.string().trim().min(1, "name the repository's folder").max(4096),
});

export interface RepositoryInspection extends RepositoryAtHead {
  /** The command a flight would run its tests with; null when none is detected (the human must give one). */
  testCommand: string | null;
}

/** Humans only, as starting a flight is: it reads folders of the machine the team runs on. */
export async function inspectForFlight(caller: Principal, repo: string): Promise<RepositoryInspection> {
  if (caller.kind !== "human") throw fail.forbidden("flight", "only humans start flights, so only humans look at a repository for one");
  const at = await inspectRepository(repo);
  return { ...at, testCommand: await detectTestCommand(at.path, at.head) };
}
