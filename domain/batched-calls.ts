// A few calls per key in flight per client (one, unless told more): calls that arrive while every slot is
// taken wait, and all that waited go to the database together, in one statement, as soon as a slot frees.
// A call that finds a slot free goes alone, at once.
// Posts (one key per room, domain/rooms/post-combiner.ts) and unscoped claims (domain/tasks/claim-next.ts) use it.
import postgres from "postgres";
import type { RawSql } from "./raw-sql";

export interface Batching<C, T> {
  /** The most calls one statement carries; the rest wait for the next turn. */
  maxBatch: number;
  /** How many calls (or batches) of one key may be in flight at once before the next ones wait (1 if unset). */
  slots?: number;
  /** Fewer calls than this waiting when a slot frees go alone, each at once (2 if unset: any two go together). */
  minBatch?: number;
  /** One call on its own: the first of a burst, and each call of a batch that failed. */
  alone(sql: RawSql, key: string, call: C): Promise<T>;
  /** Several calls in one statement; outcome i answers calls[i], and `undefined` sends that call alone after. */
  together(sql: RawSql, key: string, calls: C[]): Promise<(T | undefined)[]>;
  /** Whether a waiting call may go in a batch that already holds `batch` (else it waits for the next). */
  joins?(call: C, batch: readonly C[]): boolean;
}

interface Waiting<C, T> {
  call: C;
  resolve: (outcome: T) => void;
  reject: (error: unknown) => void;
}

/** Per key: how many calls or batches are in flight, and the calls waiting for one of them to finish. */
interface Turn<C, T> {
  inFlight: number;
  waiting: Waiting<C, T>[];
}

/** Returns the function that makes one call, combining it with the others waiting under its key. */
export function batchedCalls<C, T>(batching: Batching<C, T>): (sql: RawSql, key: string, call: C) => Promise<T> {
  const slots = batching.slots ?? 1;
  const minBatch = batching.minBatch ?? 2;
  const turnsByClient = new WeakMap<RawSql, Map<string, Turn<C, T>>>();

  function takeBatch(waiting: Waiting<C, T>[]): Waiting<C, T>[] {
    const batch: Waiting<C, T>[] = [];
    for (let i = 0; i < waiting.length && batch.length < batching.maxBatch; ) {
      const fits =
        !batching.joins ||
        batching.joins(
          waiting[i].call,
          batch.map((w) => w.call),
        );
      if (fits) batch.push(...waiting.splice(i, 1));
      else i++;
    }
    return batch;
  }

  /** Settles every call of the batch; never throws. */
  async function settle(sql: RawSql, key: string, batch: Waiting<C, T>[]): Promise<void> {
    let again = batch;
    if (batch.length > 1) {
      try {
        const outcomes = await batching.together(
          sql,
          key,
          batch.map((w) => w.call),
        );
        again = [];
        for (const [i, w] of batch.entries()) {
          const outcome = outcomes[i];
          if (outcome === undefined) again.push(w);
          else w.resolve(outcome);
        }
      } catch (error) {
        // The statement failed and its transaction rolled back, so nothing of the batch is stored: each call
        // goes again alone and meets its own fate (the one that failed it gets the error it would have got
        // alone). Any other failure (the connection lost) leaves the outcome unknown: each call is told so.
        if (!(error instanceof postgres.PostgresError)) {
          for (const w of batch) w.reject(error);
          return;
        }
      }
    }
    for (const w of again) await batching.alone(sql, key, w.call).then(w.resolve, w.reject);
  }

  /** A slot came free: the calls waiting take it together, or the key is forgotten once nothing is left. */
  function freed(sql: RawSql, turns: Map<string, Turn<C, T>>, key: string, turn: Turn<C, T>): void {
    if (turn.waiting.length === 0) {
      if (--turn.inFlight === 0) turns.delete(key);
      return;
    }
    if (turn.waiting.length >= minBatch) {
      settle(sql, key, takeBatch(turn.waiting)).then(() => freed(sql, turns, key, turn));
      return;
    }
    // Too few waiting to be worth a batch: each goes alone now, side by side, in a slot of its own.
    const few = turn.waiting.splice(0);
    turn.inFlight += few.length - 1;
    for (const w of few) settle(sql, key, [w]).then(() => freed(sql, turns, key, turn));
  }

  return (sql, key, call) => {
    const turns = turnsByClient.get(sql) ?? new Map<string, Turn<C, T>>();
    turnsByClient.set(sql, turns);
    const turn = turns.get(key) ?? { inFlight: 0, waiting: [] };
    turns.set(key, turn);
    if (turn.inFlight >= slots) {
      const waiting = turn.waiting;
      return new Promise<T>((resolve, reject) => waiting.push({ call, resolve, reject }));
    }
    turn.inFlight++;
    const alone = batching.alone(sql, key, call);
    const done = () => freed(sql, turns, key, turn);
    alone.then(done, done);
    return alone;
  };
}
