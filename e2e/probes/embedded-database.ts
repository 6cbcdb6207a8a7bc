// Finding 1 of issue 14 as a local process would try it against a running `quorum start`: read
// runtime.json for a password, log in as the superuser with the old fixed password, and — holding the
// app's own credentials, as anything that sees the app's DATABASE_URL would — switch the journal's
// trigger off, rewrite or delete an event, and run an OS command through COPY … TO PROGRAM.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";

export interface Probe {
  held: boolean;
  detail: string;
}

/** "refused" when the statement fails with an error, "ran" when it succeeds. */
async function attempt(url: string, statement: string): Promise<"refused" | "ran"> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await sql.unsafe(statement);
    return "ran";
  } catch {
    return "refused";
  } finally {
    await sql.end({ timeout: 1 });
  }
}

export async function probeEmbeddedDatabase(home: string): Promise<Probe> {
  const runtimeFile = join(home, "runtime.json");
  const runtimeText = readFileSync(runtimeFile, "utf8");
  const runtime = JSON.parse(runtimeText) as { port?: number; databaseUrl?: string };
  const port = runtime.port ?? Number(new URL(runtime.databaseUrl ?? "postgres://x@127.0.0.1:0").port);
  const passwords = JSON.parse(readFileSync(join(home, "pg-passwords.json"), "utf8")) as Record<string, string>;
  const appUrl = `postgres://quorum_app:${passwords.quorum_app}@127.0.0.1:${port}/quorum`;
  const checks: Record<string, boolean> = {
    "runtime.json is 0600": (statSync(runtimeFile).mode & 0o777) === 0o600,
    "runtime.json holds no password": !Object.values(passwords).some((password) => runtimeText.includes(password)) && !runtimeText.includes("postgres://"),
    "postgres/quorum refused": (await attempt(`postgres://postgres:quorum@127.0.0.1:${port}/quorum`, "select 1")) === "refused",
    "app role: disable trigger refused": (await attempt(appUrl, "alter table events disable trigger all")) === "refused",
    "app role: drop trigger refused": (await attempt(appUrl, "drop trigger events_append_only on events")) === "refused",
    "app role: update event refused": (await attempt(appUrl, "update events set kind = kind")) === "refused",
    "app role: delete event refused": (await attempt(appUrl, "delete from events")) === "refused",
    "app role: COPY TO PROGRAM refused": (await attempt(appUrl, "copy (select 1) to program 'true'")) === "refused",
    "app role still reads the journal": (await attempt(appUrl, "select count(*) from events")) === "ran",
  };
  const failed = Object.entries(checks).filter(([, ok]) => !ok);
  return {
    held: failed.length === 0,
    detail: failed.length === 0 ? `all ${Object.keys(checks).length} checks held` : `open: ${failed.map(([name]) => name).join("; ")}`,
  };
}
