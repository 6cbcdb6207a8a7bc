// Seed 000, Exercise 8: is a self-critique before review worth its tokens? The expected extra cost per task
// beyond the happy path (one review), without and with the coder critiquing its own diff, the break-even
// critique price and defect rate, all exact (typed decimals read as the fractions they name), then checked by
// a seeded Monte-Carlo simulation of that many tasks.
import { z } from "zod";
import { EXPERIMENT_CATALOG, type ExperimentTable } from "../../domain/experiments/report";
import { type Experiment, seedParameter } from "./experiment";
import { Fraction } from "./fraction";
import { seededRandom } from "./random";

const decimal = (name: string, fallback: string, range: { max?: number } = {}) =>
  z
    .string()
    .default(fallback)
    .refine((text) => /^\d+(\.\d+)?$/.test(text.trim()), `--${name} must be a decimal number such as ${fallback}`)
    .refine((text) => range.max === undefined || Number(text) <= range.max, `--${name} may be at most ${range.max}`)
    .transform((text) => text.trim());

export const reflectionParameters = z
  .strictObject({
    tasks: z.coerce.number().int().min(100).max(10_000_000).default(100_000),
    seed: seedParameter,
    uv: decimal("uv", "200"),
    w: decimal("w", "150"),
    ur: decimal("ur", "30"),
    p: decimal("p", "0.4", { max: 1 }),
    f: decimal("f", "0.8", { max: 1 }),
  })
  .refine((v) => Number(v.f) > 0 && Number(v.uv) > 0, { message: "--f and --uv must be above 0 (the break-even defect rate divides by f·u_v)" });
export type ReflectionParameters = z.infer<typeof reflectionParameters>;

/** How far a simulated mean may land from the exact one: this many standard errors of the mean. */
export const TOLERANCE_STANDARD_ERRORS = 4;

export interface ReflectionFigures {
  withoutCritique: Fraction;
  withCritique: Fraction;
  saving: Fraction;
  breakEvenPrice: Fraction;
  breakEvenDefectRate: Fraction;
  pays: boolean;
}

/** The exact figures (Ex 8 a, b): a defect found by review costs a rework and a second review; one found by the critique only the rework. */
export function reflectionFigures(params: Pick<ReflectionParameters, "uv" | "w" | "ur" | "p" | "f">): ReflectionFigures {
  const [uv, w, ur, p, f] = [params.uv, params.w, params.ur, params.p, params.f].map(Fraction.parse);
  const one = Fraction.of(1);
  const withoutCritique = p.times(w.plus(uv));
  const withCritique = ur.plus(p.times(w)).plus(p.times(one.minus(f)).times(uv));
  const breakEvenPrice = p.times(f).times(uv);
  return {
    withoutCritique,
    withCritique,
    saving: withoutCritique.minus(withCritique),
    breakEvenPrice,
    breakEvenDefectRate: ur.dividedBy(f.times(uv)),
    pays: ur.lessThan(breakEvenPrice),
  };
}

export interface Simulated {
  mean: number;
  /** TOLERANCE_STANDARD_ERRORS standard errors of the mean, from the exact variance. */
  tolerance: number;
}

export interface ReflectionSimulation {
  withoutCritique: Simulated;
  withCritique: Simulated;
  saving: Simulated;
  /** The saving simulated at the break-even price, and at the break-even defect rate: both should be 0. */
  savingAtBreakEvenPrice: Simulated;
  savingAtBreakEvenRate: Simulated;
}

/** Flies `tasks` tasks through the model's dice: is the diff defective, does the critique catch it. Each arm sees the same dice. */
export function simulateReflection(params: ReflectionParameters): ReflectionSimulation {
  const uv = Number(params.uv);
  const w = Number(params.w);
  const ur = Number(params.ur);
  const p = Number(params.p);
  const f = Number(params.f);
  const n = params.tasks;
  const random = seededRandom(params.seed);
  const within = (sum: number, variance: number): Simulated => ({ mean: sum / n, tolerance: TOLERANCE_STANDARD_ERRORS * Math.sqrt(variance / n) });
  let without = 0;
  let withCritique = 0;
  let caughtReviews = 0;
  for (let i = 0; i < n; i++) {
    const defective = random.next() < p;
    const caught = random.next() < f;
    // Without: a defect is rejected, reworked and reviewed again. With: the critique is always paid; a defect it
    // catches is reworked before the review, one it misses costs what it costs without.
    if (defective) without += w + uv;
    withCritique += ur + (defective ? (caught ? w : w + uv) : 0);
    if (defective && caught) caughtReviews += uv;
  }
  // At a break-even defect rate the dice are thrown again at that rate.
  const pStar = ur / (f * uv);
  let caughtAtRate = 0;
  for (let i = 0; i < n; i++) if (random.next() < pStar && random.next() < f) caughtAtRate += uv;
  const pf = p * f;
  const varianceWith = p * (f * w * w + (1 - f) * (w + uv) ** 2) - (p * w + p * (1 - f) * uv) ** 2;
  return {
    withoutCritique: within(without, p * (1 - p) * (w + uv) ** 2),
    withCritique: within(withCritique, varianceWith),
    saving: within(without - withCritique, uv * uv * pf * (1 - pf)),
    savingAtBreakEvenPrice: within(caughtReviews - n * pf * uv, uv * uv * pf * (1 - pf)),
    savingAtBreakEvenRate: within(caughtAtRate - n * ur, uv * uv * pStar * f * (1 - pStar * f)),
  };
}

const fixed = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(1) : n.toFixed(2));
const decimalOf = (x: Fraction) => (x.denominator === 1n ? x.toString() : `${x.toString()} (${Number(x.toNumber().toPrecision(6))})`);

function simulatedCells(exact: number, simulated: Simulated): [string, string] {
  const inside = Math.abs(simulated.mean - exact) <= simulated.tolerance;
  return [`${fixed(simulated.mean)} ± ${fixed(simulated.tolerance)}`, inside ? "yes" : "NO"];
}

export function reflectionTable(params: ReflectionParameters): ExperimentTable {
  const exact = reflectionFigures(params);
  const simulated = simulateReflection(params);
  const { uv, w, ur, p, f } = params;
  const price = exact.breakEvenPrice.toString();
  const rate = exact.breakEvenDefectRate.toString();
  return {
    title: "Reflection: what a self-critique before review is worth (seed 000, Exercise 8)",
    question: `With a review at u_v = ${uv} tokens, a rework at w = ${w}, a critique at u_r = ${ur}, defective diffs p = ${p} and a critique that catches f = ${f} of them, what does a task cost beyond the happy path, with and without the coder critiquing its own diff first, and where does the critique break even?`,
    parameters: params,
    columns: [
      "quantity",
      "formula",
      "exact",
      `simulated (${params.tasks.toLocaleString("en-US")} tasks, seed ${params.seed})`,
      `within ${TOLERANCE_STANDARD_ERRORS} standard errors`,
    ],
    rows: [
      [
        "expected extra cost per task, without critique",
        "p·(w + u_v)",
        decimalOf(exact.withoutCritique),
        ...simulatedCells(exact.withoutCritique.toNumber(), simulated.withoutCritique),
      ],
      [
        "expected extra cost per task, with critique",
        "u_r + p·w + p·(1 − f)·u_v",
        decimalOf(exact.withCritique),
        ...simulatedCells(exact.withCritique.toNumber(), simulated.withCritique),
      ],
      ["saving per task", "p·f·u_v − u_r", decimalOf(exact.saving), ...simulatedCells(exact.saving.toNumber(), simulated.saving)],
      [
        "break-even critique price u_r*",
        "p·f·u_v",
        decimalOf(exact.breakEvenPrice),
        ...simulatedCells(0, simulated.savingAtBreakEvenPrice).map((c, i) => (i === 0 ? `saving at u_r = ${price}: ${c}` : c)),
      ],
      [
        "break-even defect rate p*",
        "u_r / (f·u_v)",
        decimalOf(exact.breakEvenDefectRate),
        ...simulatedCells(0, simulated.savingAtBreakEvenRate).map((c, i) => (i === 0 ? `saving at p = ${rate}: ${c}` : c)),
      ],
      ["the critique pays", "u_r < p·f·u_v", `${ur} < ${price}: ${exact.pays ? "yes" : "no"}`, "—", "—"],
    ],
    notes: [
      "Extra cost is what a task costs beyond the happy path (one review that accepts). Without critique a defective diff is rejected, reworked (w) and reviewed again (u_v); with it the critique (u_r) is always paid, a defect it catches is reworked before the review, and one it misses costs what it costs without.",
      "The cost reflection does not avoid is the rework w: a defect the critique catches is still reworked, only earlier. So w cancels, and the choice reduces to one inequality: the critique pays when u_r < p·f·u_v, the second review it saves in the fraction p·f of tasks.",
      "Exact figures are computed on fractions (a typed 0.4 is 2/5). The simulation throws the same seeded dice for both arms (is the diff defective, does the critique catch it); its tolerance is 4 standard errors of the mean from the exact variance, so a correct model lands inside it about 99.99% of the time. The break-even rows simulate the saving at that price and at that defect rate, where it should be 0.",
      "Assumed, as the exercise does: the reviewer rejects every defective diff it sees, one rework fixes a defect, the critique never flags a sound diff, and a critique-caught defect gets one revision before the single review.",
      "What the model flatters (Ex 8 d): the critic is the coder itself, whose blind spots are the very defects it made, so f is likely lower than a separate reviewer's catch rate (the saving shrinks); and real reviewers miss defects, so without a critique some defects ship, and a defect the critique catches is then worth more than a saved review (the saving grows).",
    ],
  };
}

export const reflectionExperiment: Experiment<ReflectionParameters> = {
  name: "reflection",
  ...EXPERIMENT_CATALOG.reflection,
  parameters: reflectionParameters,
  database: false,
  async run(ctx, params) {
    ctx.progress(`simulating ${params.tasks.toLocaleString("en-US")} tasks with seed ${params.seed}`);
    return reflectionTable(params);
  },
};
