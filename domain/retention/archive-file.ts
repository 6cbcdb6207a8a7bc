// An archived month of the journal on disk (DESIGN §4): `events-YYYY-MM.jsonl.gz`, gzipped JSON Lines — a
// header line (what the file holds), then one event a line with every column as Postgres's row_to_json
// writes it (so `json_populate_record` brings each back bit for bit) — and beside it `….sha256`, the SHA-256
// of the file's bytes in `sha256sum` format (`sha256sum -c` checks it too). A file is trusted only once its
// checksum and every line agree with its header.
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { createInterface } from "node:readline";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { fail } from "../errors";

/** The journal's columns, in the order each line and `events` hold them. */
export const ARCHIVE_COLUMNS = ["id", "v", "t", "kind", "actor", "run_id", "task_id", "turn", "data", "tx_id"] as const;
export const ARCHIVE_FORMAT = 1;

export interface ArchiveHeader {
  quorumJournalArchive: typeof ARCHIVE_FORMAT;
  /** The month's first day, `YYYY-MM-01` (UTC). */
  month: string;
  /** The month's bounds: every event's `t` is at or after `from` and before `to`. */
  from: string;
  to: string;
  events: number;
  firstId: number | null;
  lastId: number | null;
  columns: readonly string[];
  writtenAt: string;
}

export interface VerifiedArchive extends ArchiveHeader {
  file: string;
  sha256: string;
  bytes: number;
}

export const archiveFileName = (month: string) => `events-${month.slice(0, 7)}.jsonl.gz`;
export const sidecarOf = (file: string) => `${file}.sha256`;

/** Passes bytes through, hashing them and counting them on the way. */
function hashing(hash: ReturnType<typeof createHash>, counted: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      counted.bytes += chunk.length;
      done(null, chunk);
    },
  });
}

/**
 * Writes the header and the event lines (handed over a batch at a time) into `dir/events-YYYY-MM.jsonl.gz`
 * through a `.partial` file renamed into place, then the sidecar. Returns the file, its SHA-256 and size.
 */
export async function writeArchiveFile(dir: string, header: ArchiveHeader, batches: AsyncIterable<string[]>): Promise<{ file: string; sha256: string; bytes: number }> {
  const file = join(dir, archiveFileName(header.month));
  const partial = `${file}.partial`;
  const hash = createHash("sha256");
  const counted = { bytes: 0 };
  const gzip = createGzip();
  const written = pipeline(gzip, hashing(hash, counted), createWriteStream(partial, { mode: 0o600 }));
  const put = (text: string) => (gzip.write(text) ? Promise.resolve() : new Promise<void>((resolve) => gzip.once("drain", () => resolve())));
  try {
    await put(`${JSON.stringify(header)}\n`);
    for await (const lines of batches) if (lines.length) await put(`${lines.join("\n")}\n`);
    gzip.end();
    await written;
  } catch (error) {
    gzip.destroy();
    await written.catch(() => {});
    rmSync(partial, { force: true });
    throw error;
  }
  const sha256 = hash.digest("hex");
  renameSync(partial, file);
  writeFileSync(sidecarOf(file), `${sha256}  ${basename(file)}\n`, { mode: 0o600 });
  return { file, sha256, bytes: counted.bytes };
}

/** Removes a file this archive wrote and its sidecar (the archive did not commit). */
export function removeArchiveFile(file: string): void {
  rmSync(file, { force: true });
  rmSync(sidecarOf(file), { force: true });
}

const bad = (file: string, why: string) => fail.invalid("archive", `${basename(file)} is not a verifiable journal archive: ${why}`);

/** The SHA-256 of a file's bytes. */
async function digestOf(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), bytes };
}

/** The file's lines after gunzip, the header first. */
async function* linesOf(file: string): AsyncGenerator<string> {
  const input = createReadStream(file).pipe(createGunzip());
  for await (const line of createInterface({ input, crlfDelay: Infinity })) if (line.length) yield line;
}

function readHeader(file: string, line: string | undefined): ArchiveHeader {
  let header: Partial<ArchiveHeader>;
  try {
    header = JSON.parse(line ?? "") as Partial<ArchiveHeader>;
  } catch {
    throw bad(file, "its first line is no header");
  }
  if (header.quorumJournalArchive !== ARCHIVE_FORMAT) throw bad(file, "its header names no archive format Quorum reads");
  if (typeof header.month !== "string" || !/^\d{4}-\d{2}-01$/.test(header.month)) throw bad(file, "its header names no month");
  if (typeof header.events !== "number" || JSON.stringify(header.columns) !== JSON.stringify(ARCHIVE_COLUMNS)) throw bad(file, "its header's count or columns are not Quorum's");
  return header as ArchiveHeader;
}

/**
 * Checks a file against its sidecar and its header: the checksum of its bytes, then every line — all columns
 * present, ids rising, each `t` inside the month, as many events as the header says, the first and last ids
 * it names. `eachBatch` receives the event lines as they are checked (restore loads them that way).
 */
export async function verifyArchiveFile(file: string, eachBatch?: (lines: string[]) => Promise<void>, batchSize = 1_000): Promise<VerifiedArchive> {
  if (!existsSync(file)) throw fail.notFound("archive", `no file ${file}`);
  const sidecar = sidecarOf(file);
  if (!existsSync(sidecar)) throw bad(file, `its checksum file ${basename(sidecar)} is missing`);
  const [expected, named] = readFileSync(sidecar, "utf8")
    .trim()
    .split(/\s+\*?/);
  if (!/^[0-9a-f]{64}$/.test(expected ?? "") || named !== basename(file)) throw bad(file, `${basename(sidecar)} does not hold its SHA-256`);
  const { sha256, bytes } = await digestOf(file);
  if (sha256 !== expected) throw bad(file, `its SHA-256 is ${sha256}, not the ${expected} its checksum file records: it changed since it was written`);
  const lines = linesOf(file);
  let header: ArchiveHeader | undefined;
  let count = 0;
  let firstId: number | null = null;
  let lastId: number | null = null;
  let batch: string[] = [];
  try {
    const first = await lines.next();
    header = readHeader(file, first.done ? undefined : first.value);
    const from = Date.parse(header.from);
    const to = Date.parse(header.to);
    for await (const line of lines) {
      let row: Record<string, unknown>;
      try {
        row = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw bad(file, `line ${count + 2} is not JSON`);
      }
      const missing = ARCHIVE_COLUMNS.filter((c) => !(c in row));
      if (missing.length) throw bad(file, `line ${count + 2} lacks ${missing.join(", ")}`);
      const id = Number(row.id);
      if (!Number.isSafeInteger(id) || (lastId !== null && id <= lastId)) throw bad(file, `line ${count + 2}: ids do not rise (${String(row.id)})`);
      const t = Date.parse(String(row.t));
      if (!(t >= from && t < to)) throw bad(file, `line ${count + 2}: event ${id} is dated ${String(row.t)}, outside ${header.month.slice(0, 7)}`);
      firstId ??= id;
      lastId = id;
      count++;
      batch.push(line);
      if (eachBatch && batch.length >= batchSize) {
        await eachBatch(batch);
        batch = [];
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === "Z_DATA_ERROR" || (error as { code?: string }).code === "Z_BUF_ERROR") throw bad(file, "it is not gzip");
    throw error;
  }
  if (count !== header.events || firstId !== header.firstId || lastId !== header.lastId) {
    throw bad(file, `its header promises ${header.events} events (ids ${header.firstId}–${header.lastId}), it holds ${count} (${firstId}–${lastId})`);
  }
  if (eachBatch && batch.length) await eachBatch(batch);
  return { ...header, file, sha256, bytes };
}
