// Where Quorum keeps what it owns on disk (embedded Postgres, flight clones). A module of its own so that code bundled
// by Next can find the home without importing db/embedded.ts, whose migration folders a bundle cannot trace.
import { resolve } from "node:path";

/** QUORUM_HOME as given (relative to the working directory, as a person typed it), else `.quorum`. */
export function quorumHomeAsGiven(): string {
  return process.env.QUORUM_HOME ?? ".quorum";
}

export function quorumHome(): string {
  return resolve(quorumHomeAsGiven());
}
