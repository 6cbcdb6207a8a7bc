// `quorum journal archive|restore|verify`: the operator's hands on retention, through the command's own words.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { connect, getDb } from "../db/client";
import { manualClock } from "../domain/clock";
import { appendEvent } from "../domain/journal/append";
import { journalCommand, parseBefore, verifyCommand } from "./journal";

function capture() {
  const lines: string[] = [];
  return { lines, print: (line: string) => void lines.push(line) };
}

describe("quorum journal", () => {
  it("archives the months before a date into $QUORUM_HOME/archive, verifies the file and restores it", async () => {
    const db = getDb();
    const home = mkdtempSync(join(tmpdir(), "quorum-cli-home-"));
    const clock = manualClock(new Date("2026-02-03T10:00:00Z"));
    await appendEvent(db, { kind: "HumanSignedIn", t: clock.now(), data: {} });
    clock.set(new Date("2026-04-03T10:00:00Z"));

    const missing = capture();
    expect(await journalCommand(db, ["archive"], { clock, home, print: missing.print })).toBe(1);
    expect(missing.lines[0]).toContain("--before DATE");
    const future = capture();
    expect(await journalCommand(db, ["archive", "--before", "2026-06-01"], { clock, home, print: future.print })).toBe(1);
    expect(future.lines[0]).toMatch(/^quorum: the current month \(2026-04\) and later ones are never archived/);

    const charted = capture();
    clock.set(new Date("2026-04-03T10:00:00Z"));
    expect(await journalCommand(db, ["archive", "--before", "2026-04-01"], { clock, home, print: charted.print })).toBe(1);
    expect(charted.lines[0]).toMatch(/^quorum: the Bill's charts still show events back to 2026-03-27: archive before 2026-03-01 at the latest/);

    const archived = capture();
    expect(await journalCommand(db, ["archive", "--before", "2026-03"], { clock, home, print: archived.print })).toBe(0);
    const file = join(home, "archive", "events-2026-02.jsonl.gz");
    expect(existsSync(file)).toBe(true);
    expect(archived.lines.at(-1)).toMatch(new RegExp(`^2026-02: 1 events → ${file} \\(sha256 [0-9a-f]{64}\\)$`));

    const verified = capture();
    expect(await verifyCommand(file, verified.print)).toBe(0);
    expect(verified.lines[0]).toMatch(/: ok — 2026-02, 1 events \(ids \d+…\d+\), sha256 [0-9a-f]{64}$/);
    const absent = capture();
    expect(await verifyCommand(join(home, "nothing.jsonl.gz"), absent.print)).toBe(1);
    expect(absent.lines[0]).toMatch(/^quorum: no file /);

    const restored = capture();
    expect(await journalCommand(db, ["restore", file], { clock, home, print: restored.print })).toBe(0);
    expect(restored.lines.at(-1)).toBe("2026-02 is back in the journal: 1 events.");
    const again = capture();
    expect(await journalCommand(db, ["restore", file], { clock, home, print: again.print })).toBe(1);
    expect(again.lines.at(-1)).toMatch(/2026-02 is not archived in this journal/);
  });

  it("says which role it needs when the one it has does not own the journal", async () => {
    const db = getDb();
    const role = `journal_app_${process.pid}`;
    await db.execute(sql.raw(`drop role if exists ${role}`));
    await db.execute(sql.raw(`create role ${role} login password '${role}'`));
    await db.execute(sql.raw(`grant select, insert on all tables in schema public to ${role}`));
    const url = new URL(process.env.DATABASE_URL!);
    url.username = role;
    url.password = role;
    const app = connect(url.toString(), { max: 1 });
    try {
      const refused = capture();
      const clock = manualClock(new Date("2026-06-03T10:00:00Z"));
      expect(await journalCommand(app.db, ["archive", "--before", "2026-05-01"], { clock, home: mkdtempSync(join(tmpdir(), "quorum-cli-home-")), print: refused.print })).toBe(1);
      expect(refused.lines.at(-1)).toBe(
        "quorum: archiving and restoring detach and attach the journal's partitions, which only the role that owns its tables may do: run it with that role's DATABASE_URL",
      );
    } finally {
      await app.close();
      await db.execute(sql.raw(`drop owned by ${role}`));
      await db.execute(sql.raw(`drop role ${role}`));
    }
  });

  it("reads --before as a UTC date, a month or an instant", () => {
    expect(parseBefore("2026-11-01")?.toISOString()).toBe("2026-11-01T00:00:00.000Z");
    expect(parseBefore("2026-11")?.toISOString()).toBe("2026-11-01T00:00:00.000Z");
    expect(parseBefore("2026-11-15T12:00:00Z")?.toISOString()).toBe("2026-11-15T12:00:00.000Z");
    expect(parseBefore("soon")).toBeNull();
    expect(parseBefore(undefined)).toBeNull();
  });
});
