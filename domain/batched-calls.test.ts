// The queue behind a key's calls in flight, on its own (the statements it runs are tested where they live).
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { batchedCalls } from "./batched-calls";
import type { RawSql } from "./raw-sql";

/** A call the test finishes by hand, to hold a slot for as long as it likes. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

function recorder(options: { slots?: number; minBatch?: number; failTogether?: unknown } = {}) {
  const log: string[] = [];
  const gates = new Map<string, ReturnType<typeof gate>>();
  const run = batchedCalls<string, string>({
    maxBatch: 4,
    ...options,
    async alone(_sql, _key, call) {
      log.push(`alone ${call}`);
      await gates.get(call)?.opened;
      if (call.startsWith("bad")) throw new Error(`${call} refused`);
      return `${call}!`;
    },
    async together(_sql, _key, calls) {
      log.push(`together ${calls.join(",")}`);
      if (options.failTogether) throw options.failTogether;
      return calls.map((c) => (c.startsWith("again") ? undefined : `${c}+`));
    },
    joins: (call, batch) => !batch.includes(call),
  });
  const sql = {} as RawSql;
  return { log, gates, call: (call: string) => run(sql, "k", call) };
}

describe("calls in turn", () => {
  it("go alone while a slot is free; those that waited go together, each caller once, at most maxBatch", async () => {
    const { log, gates, call } = recorder({ slots: 1 });
    const first = gate();
    gates.set("a", first);
    const outcomes = ["a", "b", "c", "b", "d", "e", "f"].map(call);
    await Promise.resolve();
    expect(log).toEqual(["alone a"]);
    first.open();
    expect(await Promise.all(outcomes)).toEqual(["a!", "b+", "c+", "b+", "d+", "e+", "f+"]);
    // The second b waited for the next batch: a batch holds each call once.
    expect(log).toEqual(["alone a", "together b,c,d,e", "together b,f"]);
  });

  it("send a call the batch could not answer alone after it, and fewer than minBatch waiting each alone", async () => {
    const { log, gates, call } = recorder({ slots: 1, minBatch: 3 });
    const first = gate();
    gates.set("a", first);
    const outcomes = ["a", "again", "b"].map(call);
    first.open();
    expect(await Promise.all(outcomes)).toEqual(["a!", "again!", "b!"]);
    expect(log).toEqual(["alone a", "alone again", "alone b"]);

    const three = recorder({ slots: 1, minBatch: 3 });
    const second = gate();
    three.gates.set("c", second);
    const more = ["c", "again2", "d", "e"].map(three.call);
    second.open();
    expect(await Promise.all(more)).toEqual(["c!", "again2!", "d+", "e+"]);
    expect(three.log).toEqual(["alone c", "together again2,d,e", "alone again2"]);
  });

  it("on a database error send each call of the batch alone; on any other error tell each it failed", async () => {
    const database = new postgres.PostgresError("a check refused one row");
    const { log, gates, call } = recorder({ slots: 1, failTogether: database });
    const first = gate();
    gates.set("a", first);
    const outcomes = ["a", "b", "bad"].map((c) => call(c).catch((error: Error) => error.message));
    first.open();
    expect(await Promise.all(outcomes)).toEqual(["a!", "b!", "bad refused"]);
    expect(log).toEqual(["alone a", "together b,bad", "alone b", "alone bad"]);

    const lost = recorder({ slots: 1, failTogether: new Error("connection lost") });
    const held = gate();
    lost.gates.set("a", held);
    const unknown = ["a", "b", "c"].map((c) => lost.call(c).catch((error: Error) => error.message));
    held.open();
    expect(await Promise.all(unknown)).toEqual(["a!", "connection lost", "connection lost"]);
  });

  it("with two slots, two go at once before any waits", async () => {
    const { log, gates, call } = recorder({ slots: 2 });
    const [ga, gb] = [gate(), gate()];
    gates.set("a", ga);
    gates.set("b", gb);
    const outcomes = ["a", "b", "c", "d"].map(call);
    await Promise.resolve();
    expect(log).toEqual(["alone a", "alone b"]);
    gb.open();
    ga.open();
    expect(await Promise.all(outcomes)).toEqual(["a!", "b!", "c+", "d+"]);
    expect(log).toEqual(["alone a", "alone b", "together c,d"]);
  });
});
