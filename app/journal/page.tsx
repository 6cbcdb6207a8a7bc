import type { Metadata } from "next";
import { JournalView } from "@/components/journal/journal-view";
import { readParams } from "@/components/journal/journal-params";
import { EVENT_KINDS } from "@/domain/journal/kinds";

export const metadata: Metadata = { title: "Journal" };

export const dynamic = "force-dynamic";

export default async function JournalPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = await searchParams;
  const params = readParams(search);
  // Keyed by the query, so that a link to another view of the journal starts from its own state.
  return <JournalView key={JSON.stringify(params)} initial={params} kinds={[...EVENT_KINDS].sort()} />;
}
