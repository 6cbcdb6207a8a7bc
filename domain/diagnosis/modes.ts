// The fourteen failure modes of multi-agent LLM systems (MAST: Cemri et al. 2025, "Why Do Multi-Agent LLM
// Systems Fail?"), in three categories, and the one rule that grades a finding. docs/DIAGNOSIS.md says which
// of them a journal can show, and how Quorum's detectors see each.

export const CATEGORIES = {
  1: "Specification and system design",
  2: "Inter-agent misalignment",
  3: "Task verification and termination",
} as const;
export type Category = keyof typeof CATEGORIES;

export const MODES = {
  "FM-1.1": { name: "Disobey task specification", category: 1 },
  "FM-1.2": { name: "Disobey role specification", category: 1 },
  "FM-1.3": { name: "Step repetition", category: 1 },
  "FM-1.4": { name: "Loss of conversation history", category: 1 },
  "FM-1.5": { name: "Unaware of termination conditions", category: 1 },
  "FM-2.1": { name: "Conversation reset", category: 2 },
  "FM-2.2": { name: "Fail to ask for clarification", category: 2 },
  "FM-2.3": { name: "Task derailment", category: 2 },
  "FM-2.4": { name: "Information withholding", category: 2 },
  "FM-2.5": { name: "Ignored other agent's input", category: 2 },
  "FM-2.6": { name: "Reasoning-action mismatch", category: 2 },
  "FM-3.1": { name: "Premature termination", category: 3 },
  "FM-3.2": { name: "No or incomplete verification", category: 3 },
  "FM-3.3": { name: "Incorrect verification", category: 3 },
} as const satisfies Record<string, { name: string; category: Category }>;
export type ModeId = keyof typeof MODES;
export const MODE_IDS = Object.keys(MODES) as ModeId[];

/**
 * How far a failure got, which is all a severity says (DIAGNOSIS.md "Severity"):
 * - `landed`: what it produced got past a gate into the flight's result (accepted, integrated, or the suite red);
 * - `cost`: a gate or the harness caught it, at the price of work (a rejected round, a run ended or redone, a task released);
 * - `absorbed`: nothing was lost beyond the step itself.
 */
export type Reach = "landed" | "cost" | "absorbed";
export const SEVERITIES = ["low", "medium", "high"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The severity rule, once: high when it landed, medium when it cost work, low when it was absorbed. */
export function severityOf(reach: Reach): Severity {
  return reach === "landed" ? "high" : reach === "cost" ? "medium" : "low";
}
