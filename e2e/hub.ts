// The shared Quorum's database, reached from the test process: the fixtures add a human or an agent with the very
// domain functions `quorum human add` and `quorum agent add` call, without starting a CLI process for each (the
// CLI's own path is walked by the specs that run it). Found as the CLI finds it: E2E_DATABASE_URL, else the
// embedded server that the shared Quorum started in its home.
import { connect } from "../db/client";
import { runningDatabase } from "../db/embedded";
import type { Db } from "../db/client";

export async function withHubDatabase<T>(work: (db: Db) => Promise<T>, home = process.env.QUORUM_E2E_HOME!): Promise<T> {
  const url = process.env.E2E_DATABASE_URL ?? (await runningDatabase(home))?.url;
  if (!url) throw new Error(`no running database in ${home}: is its Quorum up?`);
  const connection = connect(url, { max: 1, name: "quorum-e2e-fixtures" });
  try {
    return await work(connection.db);
  } finally {
    await connection.close();
  }
}
