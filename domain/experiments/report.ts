// What an experiment reports: a table with the parameters and the command that reproduce it. The drivers
// (agents/experiments/) fill it, `quorum experiment` prints it as Markdown and saves it with its JSON beside it
// (./saved.ts names the files), and the Experiments page reads the JSON back.
import { z } from "zod";

export const EXPERIMENT_NAMES = ["bakeoff", "zero-intelligence", "gates", "reflection"] as const;
export type ExperimentName = (typeof EXPERIMENT_NAMES)[number];

/** What each experiment is and the flags it takes, as the usage and the Experiments page say them. */
export const EXPERIMENT_CATALOG: Record<ExperimentName, { summary: string; flags: string }> = {
  bakeoff: { summary: "seed 003: handoff by messages against leases, fences and incremental output, one run in 12 killed", flags: "[--tasks N] [--seed S] [--workers W]" },
  "zero-intelligence": { summary: "the 2×2 of competent or stub coder and rule or rubber-stamp reviewer, flown by the real team", flags: "" },
  gates: { summary: "a courtesy loop, parroting and stale speech through Quorum's relay and a baseline without gates", flags: "[--turns N]" },
  reflection: {
    summary: "seed 000 Ex 8: expected extra cost with and without self-critique, break-even price and defect rate, exact and simulated",
    flags: "[--tasks N] [--seed S] [--uv 200] [--w 150] [--ur 30] [--p 0.4] [--f 0.8]",
  },
};

/** One saved result, as its JSON file holds it (the page reads these, so a file of another shape is skipped). */
export const experimentReport = z.object({
  experiment: z.enum(EXPERIMENT_NAMES),
  title: z.string(),
  /** The question the table answers, in one sentence. */
  question: z.string(),
  ranAt: z.iso.datetime(),
  /** Wall-clock seconds the run took. */
  seconds: z.number().nonnegative(),
  /** Every parameter the run used, defaults included, in the order the command names them. */
  parameters: z.record(z.string(), z.union([z.string(), z.number()])),
  /** The exact command that runs it again with the same parameters. */
  command: z.string(),
  columns: z.array(z.string()).min(1),
  rows: z.array(z.array(z.string())),
  /** What a reader needs to read the table right: definitions, what is modelled and what is not. */
  notes: z.array(z.string()),
});
export type ExperimentReport = z.infer<typeof experimentReport>;

/** What a driver computes; the CLI adds when it ran, how long it took and the command. */
export type ExperimentTable = Omit<ExperimentReport, "ranAt" | "seconds" | "command" | "experiment">;

/** A table cell in Markdown: pipes escaped, line breaks flattened. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

/** The report as the Markdown the CLI prints and saves. */
export function markdownOf(report: ExperimentReport): string {
  const parameters = Object.entries(report.parameters)
    .map(([name, value]) => `${name} = ${value}`)
    .join(", ");
  return [
    `# ${report.title}`,
    "",
    report.question,
    "",
    `Ran ${report.ranAt} in ${report.seconds.toFixed(1)} s; parameters: ${parameters || "none"}.`,
    `Reproduce: \`${report.command}\``,
    "",
    `| ${report.columns.map(cell).join(" | ")} |`,
    `|${report.columns.map(() => "---").join("|")}|`,
    ...report.rows.map((row) => `| ${row.map(cell).join(" | ")} |`),
    "",
    ...report.notes.map((note) => `- ${note}`),
    "",
  ].join("\n");
}
