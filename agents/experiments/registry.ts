// The experiments `quorum experiment NAME` runs, by name (seed 000's and seed 003's).
import { bakeoffExperiment } from "./bakeoff";
import type { Experiment, Parameters } from "./experiment";
import { gatesExperiment } from "./gates";
import { reflectionExperiment } from "./reflection";
import { zeroIntelligenceExperiment } from "./zero-intelligence";

export const EXPERIMENTS: Experiment<Parameters>[] = [bakeoffExperiment, zeroIntelligenceExperiment, gatesExperiment, reflectionExperiment];

export function experimentNamed(name: string): Experiment<Parameters> | undefined {
  return EXPERIMENTS.find((e) => e.name === name);
}
