// The experiments' saved tables as the browser receives them: server/experiments' own view types (type-only).
export type { SavedExperiment, SavedExperiments } from "@/server/experiments/saved";
