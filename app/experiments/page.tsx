import type { Metadata } from "next";
import { ExperimentsView } from "@/components/experiments/experiments-view";

// Part of Settings' Lab, not a page of the rail: the title says where it belongs.
export const metadata: Metadata = { title: "Experiments · Lab" };

export default function ExperimentsPage() {
  return <ExperimentsView />;
}
