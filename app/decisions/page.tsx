import type { Metadata } from "next";
import { DecisionsView } from "@/components/decisions/decisions-view";

export const metadata: Metadata = { title: "Decisions" };

export default async function DecisionsPage({ searchParams }: { searchParams: Promise<{ view?: string }> }) {
  const { view } = await searchParams;
  return <DecisionsView view={view === "all" ? "all" : "open"} />;
}
