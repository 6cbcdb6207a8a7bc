// The embedded database as a local attacker meets it: no fixed password, no secret in runtime.json,
// private files, and an app role that can append to the journal but never rewrite it, switch its
// trigger off, reach its partitions, change the schema or run OS commands. A data folder made with the old fixed password
// is upgraded in place on its next start.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { connect } from "../db/client";
import { APP_ROLE, type EmbeddedDatabase, runningDatabase, startEmbeddedPostgres } from "../db/embedded";
import { manualClock, systemClock } from "../domain/clock";
import { appendEvent } from "../domain/journal/append";
import { addMonths, journalPartitions, keepJournalPartitionsAhead, monthOf } from "../domain/journal/partitions";
import { ensureHuman } from "../domain/principals/create-principal";
import { deliverWebhooks } from "../domain/webhooks/deliver";
import { addWebhook } from "../domain/webhooks/manage";

const home = mkdtempSync(join(tmpdir(), "quorum-embedded-"));
let database: EmbeddedDatabase | undefined;

afterAll(async () => {
  await database?.stop();
  rmSync(home, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** The SQLSTATE a statement fails with on this connection, or "ok". */
async function outcome(sql: postgres.Sql, statement: string): Promise<string> {
  try {
    await sql.unsafe(statement);
    return "ok";
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

const withPassword = (url: string, user: string, password: string) => {
  const parsed = new URL(url);
  parsed.username = user;
  parsed.password = password;
  return parsed.toString();
};

describe("the embedded database", () => {
  it("keeps random passwords in 0600 files, puts none in runtime.json, and gives the app a role that cannot touch the journal's guard", { timeout: 90_000 }, async () => {
    database = await startEmbeddedPostgres(home);
    await database.migrate();
    const root = process.getuid?.() === 0;
    // As root, Postgres runs as the `postgres` user, which must pass through the home folder (not list it).
    expect(modeOf(home)).toBe(root ? 0o711 : 0o700);
    expect(modeOf(join(home, "pg"))).toBe(0o700);
    expect(modeOf(join(home, "pg-passwords.json"))).toBe(0o600);
    expect(modeOf(join(home, "runtime.json"))).toBe(0o600);
    const runtime = JSON.parse(readFileSync(join(home, "runtime.json"), "utf8"));
    expect(Object.keys(runtime).sort()).toEqual(["pid", "port"]);
    const passwords = Object.values(JSON.parse(readFileSync(join(home, "pg-passwords.json"), "utf8")) as Record<string, string>);
    expect(passwords).toHaveLength(2);
    for (const password of passwords) expect(password.length).toBeGreaterThanOrEqual(32);

    // The old fixed password opens nothing.
    const legacy = postgres(withPassword(database.ownerUrl, "postgres", "quorum"), { max: 1, onnotice: () => {} });
    expect(await outcome(legacy, "select 1")).toBe("28P01");
    await legacy.end();

    // A CLI command finds the same server through runtime.json and the passwords file.
    const running = await runningDatabase(home);
    expect(running && { url: running.url, ownerUrl: running.ownerUrl }).toEqual({ url: database.url, ownerUrl: database.ownerUrl });

    const app = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const [me] = await app`select current_user as name, rolsuper, rolcreaterole, rolcreatedb, rolbypassrls from pg_roles where rolname = current_user`;
      expect(me).toEqual({ name: APP_ROLE, rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolbypassrls: false });
      const refused = [
        "alter table events disable trigger all",
        "alter table events disable trigger events_append_only",
        "drop trigger events_append_only on events",
        "drop trigger events_webhook_outbox on events",
        "create or replace function quorum_events_append_only() returns trigger language plpgsql as $$ begin return new; end $$",
        "update events set kind = 'Rewritten'",
        "delete from events",
        "truncate events",
        "alter table events add column note text",
        "drop table events",
        "alter table tasks owner to quorum_app",
        "create table planted (id int)",
        "create schema planted",
        "set session_replication_role = replica",
        "copy (select 1) to program 'id'",
        "copy events to '/tmp/quorum-journal-copy'",
        "select pg_read_file('/etc/passwd')",
        "grant pg_execute_server_program to quorum_app",
        "alter role quorum_app superuser",
        // The journal's partitions are reached through events alone, and only the coming months are made.
        "select count(*) from events_default",
        "insert into events_default (kind, t) values ('Planted', now())",
        "delete from events_default",
        "alter table events detach partition events_default",
        "drop table events_default",
        "select quorum_journal_partition('2099-01-01')",
      ];
      const outcomes = Object.fromEntries(await Promise.all(refused.map(async (statement) => [statement, await outcome(app, statement)])));
      expect(outcomes).toEqual(Object.fromEntries(refused.map((statement) => [statement, "42501"])));
    } finally {
      await app.end();
    }
    // The partitions sweeper runs as the app's role: it makes the coming months' partitions through the one function.
    const sweeping = connect(database.url, { max: 1 });
    try {
      const made = await keepJournalPartitionsAhead(sweeping.db, systemClock, 4);
      expect(made.map((m) => m.made)).toEqual(["created", "created", "created"]);
      expect(await journalPartitions(sweeping.db)).toContain(addMonths(monthOf(new Date()), 4));
    } finally {
      await sweeping.close();
    }

    // …and the app still does its work on that role: its rules append to the journal.
    const connection = connect(database.url, { max: 2 });
    try {
      const before = await connection.sql`select count(*)::int as n from events`;
      const human = await ensureHuman(connection.db, "embedded-tester", manualClock());
      const appended = await connection.sql`select kind from events where data->>'principalId' = ${human.id}`;
      expect(appended).toEqual([{ kind: "PrincipalCreated" }]);
      const after = await connection.sql`select count(*)::int as n from events`;
      expect(after[0].n).toBe(before[0].n + 1);
      // The webhook outbox works on that role too: the journal's trigger queues, a deliverer claims.
      const hook = await addWebhook(connection.db, human, { url: "http://127.0.0.1:9/hook", events: ["lease.expired"] }, manualClock());
      await appendEvent(connection.db, { kind: "LeaseExpired", t: new Date(), data: { number: 1, ownerId: null, fence: 1, outputCount: 0 } });
      expect(await connection.sql`select type, status from webhook_deliveries where endpoint_id = ${hook.id}`).toEqual([{ type: "lease.expired", status: "pending" }]);
      expect(await deliverWebhooks(connection.db, systemClock)).toMatchObject({ claimed: 1, failed: 1 });
    } finally {
      await connection.close();
    }
  });

  it("upgrades a data folder made with the old fixed password: rotated on its next start, the data kept", { timeout: 90_000 }, async () => {
    // Put the folder back the way earlier versions left it: superuser password `quorum`, no app role, no passwords file.
    const first = database!;
    const owner = postgres(first.ownerUrl, { max: 1, onnotice: () => {} });
    await owner.unsafe(`drop owned by ${APP_ROLE}`);
    await owner.unsafe(`drop role ${APP_ROLE}`);
    await owner.unsafe("alter role postgres password 'quorum'");
    await owner.end();
    await first.stop();
    database = undefined;
    rmSync(join(home, "pg-passwords.json"));
    expect(existsSync(join(home, "runtime.json"))).toBe(false);

    database = await startEmbeddedPostgres(home);
    await database.migrate();
    expect(modeOf(join(home, "pg-passwords.json"))).toBe(0o600);
    const legacy = postgres(withPassword(database.ownerUrl, "postgres", "quorum"), { max: 1, onnotice: () => {} });
    expect(await outcome(legacy, "select 1")).toBe("28P01");
    await legacy.end();
    const app = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      expect(await app`select name from principals where name = 'embedded-tester'`).toEqual([{ name: "embedded-tester" }]);
      expect(await outcome(app, "alter table events disable trigger all")).toBe("42501");
      expect(await outcome(app, "update events set kind = 'Rewritten'")).toBe("42501");
    } finally {
      await app.end();
    }
  });
});
