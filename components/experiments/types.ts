// The experiments' saved tables as the browser receives them: domain/experiments' own view types (type-only).
export type { SavedExperiment, SavedExperiments } from "@/domain/experiments/saved";
