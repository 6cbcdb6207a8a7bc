// Gated posting through postMessage (the API's one send path) against raw single-row INSERTs of the same size.
import type { Connection } from "../db/client";
import { QuorumError } from "../domain/errors";
import type { Principal } from "../domain/principal";
import { advanceCursor } from "../domain/rooms/cursor";
import { postMessage } from "../domain/rooms/post-message";
import { createRoom } from "../domain/rooms/rooms";
import { body, cpuText, median, progress, record, REPS, SECONDS, steppingClock, timedCosts } from "./lib";
import { systemClock } from "../domain/clock";

type Cost = { node: number; postgres: number };

export async function benchPosting(c: Connection, human: Principal, agents: Principal[]) {
  const refusals = new Map<string, number>();
  const tryPost = async (fn: () => Promise<unknown>): Promise<number> => {
    try {
      await fn();
      return 1;
    } catch (error) {
      if (!(error instanceof QuorumError)) throw error;
      const code = String((error.toBody() as { error?: string }).error);
      refusals.set(code, (refusals.get(code) ?? 0) + 1);
      return 0;
    }
  };
  await c.sql`create table if not exists bench_messages (id bigserial primary key, room text not null, seq bigint not null, sender uuid not null, body text not null, created_at timestamptz not null default now())`;
  const one: number[] = [];
  const eight: number[] = [];
  const raw1: number[] = [];
  const raw8: number[] = [];
  const cpu = { one: [] as Cost[], eight: [] as Cost[], raw1: [] as Cost[], raw8: [] as Cost[] };
  const costed = (into: number[], costs: Cost[]) => (r: { perSecond: number; cpu: Cost }) => {
    into.push(r.perSecond);
    costs.push(r.cpu);
  };
  let humanShareOne = 0;
  // One clock for every section and repetition: the rate floor counts an agent's messages in every room,
  // so a clock per section would start behind the last section's messages (they would sit in its future
  // and fill the floor's window: 150–180 rate_limited refusals per run before 2026-11-30).
  const clock = steppingClock(1000);
  for (let rep = 1; rep <= REPS; rep++) {
    // 8 agents in one room: direct messages (which skip the freshness gate by design) to the next
    // agent; every 8th post is the human's, which resets the loop counters and keeps the two-tier cap.
    progress(`gated posting, 8 agents in one room, rep ${rep}/${REPS}`);
    const room = `bench-one-${rep}`;
    await createRoom(c.db, human, { name: room }, systemClock);
    let n = 0;
    let humans = 0;
    let total = 0;
    costed(
      one,
      cpu.one,
    )(
      await timedCosts(8, SECONDS, async (w) => {
        const i = n++;
        total++;
        if (i % 8 === 0) {
          humans++;
          return tryPost(() => postMessage(c.db, human, room, { body: body(`human ${rep}.${i}`) }, clock));
        }
        return tryPost(() => postMessage(c.db, agents[w], room, { body: body(`dm ${rep}.${i} from ${w}`), to: agents[(w + 1) % 8].name }, clock));
      }),
    );
    humanShareOne = humans / total;
    // 8 agents in 8 rooms: each agent broadcasts in its own room; the human speaks there every 4th post and
    // the agent acks its cursor to that message before broadcasting again (the freshness gate's rule).
    progress(`gated posting, 8 agents in 8 rooms, rep ${rep}/${REPS}`);
    const roomsOf = agents.map((_, w) => `bench-r${rep}-${w}`);
    for (const r of roomsOf) await createRoom(c.db, human, { name: r }, systemClock);
    costed(
      eight,
      cpu.eight,
    )(
      await timedCosts(8, SECONDS, async (w, i) => {
        if (i % 4 === 0) {
          try {
            const m = await postMessage(c.db, human, roomsOf[w], { body: body(`human ${rep}.${w}.${i}`) }, clock);
            await advanceCursor(c.db, agents[w], roomsOf[w], { seq: m.seq }, clock);
            return 1;
          } catch (error) {
            if (error instanceof QuorumError) return tryPost(() => Promise.reject(error));
            throw error;
          }
        }
        return tryPost(() => postMessage(c.db, agents[w], roomsOf[w], { body: body(`post ${rep}.${w}.${i}`) }, clock));
      }),
    );
    // The anchors: the same body size, one autocommitted single-row INSERT at a time.
    progress(`raw single-row INSERTs, 1 and 8 connections, rep ${rep}/${REPS}`);
    const sender = agents[0].id;
    const insert = (w: number, i: number) =>
      c.sql`insert into bench_messages (room, seq, sender, body) values (${`raw${w}`}, ${i}, ${sender}, ${body(`raw ${rep}.${w}.${i}`)})`.then(() => 1);
    costed(raw1, cpu.raw1)(await timedCosts(1, SECONDS, insert));
    costed(raw8, cpu.raw8)(await timedCosts(8, SECONDS, insert));
  }
  const refused = [...refusals].map(([k, v]) => `${k} ${v}`).join(", ") || "none";
  const note = `every post through postMessage (gates, seq, journal, delivery); refusals: ${refused}`;
  record({
    section: "posting",
    figure: "gated posting, 8 agents · 1 room (DMs + human every 8th)",
    value: median(one),
    unit: "posts/s",
    anchor: "raw INSERT, 1 connection",
    anchorValue: median(raw1),
    better: "higher",
    note,
  });
  record({
    section: "posting",
    figure: "gated posting, 8 agents · 1 room (DMs + human every 8th)",
    value: median(one),
    unit: "posts/s",
    anchor: "raw INSERT, 8 connections",
    anchorValue: median(raw8),
    better: "higher",
    note: `${Math.round(humanShareOne * 100)}% of posts are the human's; ${cpuText("posts", cpu.one)}; ${cpuText("raw INSERTs (8 conns)", cpu.raw8)}`,
  });
  record({
    section: "posting",
    figure: "gated posting, 8 agents · 8 rooms (broadcast after ack)",
    value: median(eight),
    unit: "posts/s",
    anchor: "raw INSERT, 1 connection",
    anchorValue: median(raw1),
    better: "higher",
    note,
  });
  record({
    section: "posting",
    figure: "gated posting, 8 agents · 8 rooms (broadcast after ack)",
    value: median(eight),
    unit: "posts/s",
    anchor: "raw INSERT, 8 connections",
    anchorValue: median(raw8),
    better: "higher",
    note: `25% of posts are the human's; each is followed by the agent's cursor ack (timed, not counted); ${cpuText("posts", cpu.eight)}; ${cpuText("raw INSERTs (8 conns)", cpu.raw8)}`,
  });
}
