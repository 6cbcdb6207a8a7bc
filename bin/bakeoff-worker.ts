// One agent process of `quorum experiment bakeoff` (agents/experiments/bakeoff.ts starts it, and kills it): it
// signs in with its key (QUORUM_KEY) on the scratch database (DATABASE_URL) and runs the bake-off's agent in
// its arm until there is no more work, or the supervisor says stop.
// Usage: node --import tsx bin/bakeoff-worker.ts <M|B> <scope> <start> <kill plan JSON>
//   scope: the parent task (B) or the rooms' prefix (M); start: where an M agent starts looking; the kill plan
//   maps a task number to the point the supervisor may kill it at (see bakeoff-corpus.ts).
// Prints one JSON line per step; at a planned point it asks ({"checkpoint"}) and waits for "go" (or its end).
import { createInterface } from "node:readline";
import { connect } from "../db/client";
import { type Arm, boardCoordination, type Counters, roomCoordination, runBakeoffAgent } from "../agents/experiments/bakeoff-agent";
import { systemClock } from "../domain/clock";
import { agentKeySetting, databaseUrlSetting } from "../domain/config";
import { requireCaller } from "../domain/principals/authenticate";

const [arm, scope, start, plan] = process.argv.slice(2) as [Arm, string, string, string];
const kills = new Map<number, number>(Object.entries(JSON.parse(plan) as Record<string, number>).map(([task, k]) => [Number(task), k]));
const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

let stopping = false;
let resume: (() => void) | null = null;
createInterface({ input: process.stdin }).on("line", (line) => {
  if (line === "stop") stopping = true;
  if (line === "go") {
    resume?.();
    resume = null;
  }
});

const connection = connect(databaseUrlSetting()!, { max: 2 });
const { db } = connection;
const agent = await requireCaller(db, { method: "POST", authorization: `Bearer ${agentKeySetting()}` }, systemClock);
const counters: Counters = { reads: 0, writes: 0 };
const coordination = arm === "B" ? boardCoordination(db, agent, systemClock, scope, counters) : roomCoordination(db, agent, systemClock, scope, Number(start), counters);
say({ ready: agent.name });
await runBakeoffAgent(
  coordination,
  {
    say,
    async checkpoint(task, k) {
      if (kills.get(task) !== k) return;
      const asked = new Promise<void>((resolve) => (resume = resolve));
      say({ checkpoint: task, k, ...counters });
      await asked;
    },
    stopping: () => stopping,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  },
  counters,
);
say({ idle: true, ...counters });
await connection.close();
process.exit(0);
