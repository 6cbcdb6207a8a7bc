// The bake-off's fixed corpus and its kill plan, both drawn from the seed: every task is a batch of documents
// whose digest an agent derives one by one (each taking a set time of work), and one run in twelve is marked
// for a kill at a point in its work (before document k, or after its handoff), the same tasks and points in
// both arms.
import { createHash } from "node:crypto";
import { seededRandom } from "./random";

export interface Document {
  name: string;
  text: string;
  /** How long deriving it takes, in ms (the same in both arms). */
  workMs: number;
}

export interface CorpusTask {
  number: number;
  documents: Document[];
}

/** One run in this many is killed (seed 003). */
export const KILL_ONE_IN = 12;

const WORDS = [
  "indemnity",
  "liability",
  "termination",
  "renewal",
  "assignment",
  "warranty",
  "governing law",
  "notice",
  "severability",
  "force majeure",
  "payment",
  "confidentiality",
];

export function corpusOf(tasks: number, seed: number): CorpusTask[] {
  const random = seededRandom(seed);
  return Array.from({ length: tasks }, (_, t) => ({
    number: t + 1,
    documents: Array.from({ length: random.between(6, 14) }, (_, d) => ({
      name: `contract-${t + 1}-${d + 1}`,
      text: `Contract ${t + 1}.${d + 1}: ${random.sample(WORDS, 4).join(", ")} (${random.between(1, 99)} pages)`,
      workMs: random.between(20, 60),
    })),
  }));
}

/** What an agent derives from a document: the same function in both arms. */
export function derive(document: Document): { name: string; digest: string } {
  return { name: document.name, digest: createHash("sha256").update(document.text).digest("hex").slice(0, 16) };
}

/**
 * Which runs the supervisor kills, and where: task number → k, killed before document k (0: right after it
 * took the task), or after its handoff when k is the task's length. At least one task, one in twelve.
 */
export function killPlanOf(corpus: CorpusTask[], seed: number): Map<number, number> {
  const random = seededRandom(seed ^ 0x5eed);
  const doomed = random.sample(corpus, Math.max(1, Math.round(corpus.length / KILL_ONE_IN)));
  return new Map(doomed.map((task) => [task.number, random.between(0, task.documents.length)]));
}

export const workMsOf = (task: CorpusTask) => task.documents.reduce((ms, d) => ms + d.workMs, 0);
