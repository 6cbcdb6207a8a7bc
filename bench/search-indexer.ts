// The search sweeper's work during a bench run: the same call, on the same one-second interval, as the app's.
import type { Db } from "../db/client";
import { indexJournalSearch } from "../domain/journal/search-index";
import { SWEEPERS } from "../domain/sweepers/schedule";

const EVERY_MS = SWEEPERS.find((s) => s.name === "search")?.everyMs ?? 1000;

/** Starts indexing every EVERY_MS (never two passes at once); the returned function stops it after the pass in flight. */
export function startSearchIndexer(db: Db): () => Promise<void> {
  let pass: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    pass = pass.then(() => indexJournalSearch(db)).catch((error) => console.error("[bench search indexer]", error));
  }, EVERY_MS);
  return async () => {
    clearInterval(timer);
    await pass;
  };
}
