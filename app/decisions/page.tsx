import { DecisionsView } from "@/components/decisions/decisions-view";

export default async function DecisionsPage({ searchParams }: { searchParams: Promise<{ view?: string }> }) {
  const { view } = await searchParams;
  return <DecisionsView view={view === "all" ? "all" : "open"} />;
}
