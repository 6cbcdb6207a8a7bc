// `quorum experiment NAME`: prints the table, saves it in the hub's QUORUM_HOME where the Lab's Experiments page
// reads it (never in Quorum's source tree), and the command it records reproduces it; it runs on a scratch
// database it drops after, never the hub's; bad input is a usage.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { vi } from "vitest";

// The hub's own folder, whatever the shell running the tests set (an empty value counts as none).
vi.stubEnv("QUORUM_EXPERIMENTS_DIR", "");
const folder = join(process.env.QUORUM_HOME!, "experiments");
const notebook = join(import.meta.dirname, "..", "bench", "results", "experiments");

const { afterAll, describe, expect, it } = await import("vitest");
afterAll(() => vi.unstubAllEnvs());
const postgres = (await import("postgres")).default;
const { getDb } = await import("../db/client");
const { listSavedExperiments } = await import("../domain/experiments/saved");
const { experimentCommand } = await import("./experiment");

function capture() {
  const out: string[] = [];
  const progress: string[] = [];
  return { out, progress, print: (text: string) => void out.push(text), say: (line: string) => void progress.push(line) };
}

async function scratchDatabases(): Promise<string[]> {
  const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    return (await sql`select datname from pg_database where datname like ${`quorum_experiment_${process.pid}_%`}`).map((r) => r.datname as string);
  } finally {
    await sql.end();
  }
}

describe("quorum experiment", () => {
  it("prints the table, saves it with its JSON in the hub's folder, not the repository's, and its recorded command reproduces it", async () => {
    const inNotebook = readdirSync(notebook).sort();
    const run = capture();
    expect(await experimentCommand(["reflection", "--tasks", "3000", "--seed", "9"], run.print, run.say)).toBe(0);
    expect(run.out[0]).toContain("| break-even defect rate p* | u_r / (f·u_v) | 3/16 (0.1875) |");
    expect(run.progress.at(-1)).toMatch(/^saved .*reflection-\d{4}-\d\d-\d\d-tasks-3000-seed-9-uv-200-w-150-ur-30-p-0\.4-f-0\.8\.md$/);
    expect(run.progress.at(-1)).toContain(`saved ${folder}/`);
    expect(readdirSync(folder).sort()).toEqual([expect.stringMatching(/\.json$/), expect.stringMatching(/\.md$/)]);
    expect(readdirSync(notebook).sort()).toEqual(inNotebook);
    const [saved] = listSavedExperiments(folder).items;
    expect(saved.command).toBe("npm run quorum -- experiment reflection --tasks 3000 --seed 9 --uv 200 --w 150 --ur 30 --p 0.4 --f 0.8");
    const again = capture();
    expect(await experimentCommand(saved.command.split(" ").slice(5), again.print, again.say)).toBe(0);
    expect(listSavedExperiments(folder).items).toHaveLength(1);
    expect(listSavedExperiments(folder).items[0].rows).toEqual(saved.rows);
  });

  it("runs on a scratch database of its own and drops it, leaving the hub's untouched", async () => {
    const [{ count: before }] = await getDb().execute<{ count: number }>("select count(*)::int as count from events" as never);
    const run = capture();
    expect(await experimentCommand(["gates", "--turns", "20"], run.print, run.say)).toBe(0);
    expect(run.progress[0]).toMatch(/^scratch database quorum_experiment_\d+_\d+ on DATABASE_URL's server: migrating$/);
    expect(run.out[0]).toContain("| courtesy loop | Quorum's relay (gates on) | 12 |");
    expect(await scratchDatabases()).toEqual([]);
    const [{ count: after }] = await getDb().execute<{ count: number }>("select count(*)::int as count from events" as never);
    expect(after).toBe(before);
  }, 120_000); // a scratch database created and migrated: slow on a busy machine

  it("answers a usage for an unknown experiment or a bad flag, and runs nothing", async () => {
    const unknown = capture();
    expect(await experimentCommand(["auction"], unknown.print, unknown.say)).toBe(1);
    expect(unknown.out[0]).toMatch(/^quorum: no experiment named 'auction'\n {2}quorum experiment NAME/);
    const bad = capture();
    expect(await experimentCommand(["reflection", "--p", "lots"], bad.print, bad.say)).toBe(1);
    expect(bad.out[0]).toMatch(/^quorum: --p: --p must be a decimal number such as 0\.4/);
    const stray = capture();
    expect(await experimentCommand(["bakeoff", "--colour", "red"], stray.print, stray.say)).toBe(1);
    expect(stray.out[0]).toContain("Unknown option '--colour'");
    expect(unknown.progress.concat(bad.progress, stray.progress)).toEqual([]);
  });
});
