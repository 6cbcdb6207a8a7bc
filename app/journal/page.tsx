import type { Metadata } from "next";
import { JournalView } from "@/components/journal/journal-view";
import { readParams } from "@/components/journal/journal-params";
import { kindWords } from "@/components/journal/event-line";
import { EVENT_KINDS, SYSTEM_KINDS } from "@/domain/journal/kinds";

export const metadata: Metadata = { title: "Journal" };

export const dynamic = "force-dynamic";

export default async function JournalPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = await searchParams;
  const params = readParams(search);
  // Keyed by the query, so that a link to another view of the journal starts from its own state.
  const kinds = EVENT_KINDS.map((kind) => ({ kind, words: kindWords(kind), system: SYSTEM_KINDS.includes(kind) })).sort((a, b) => a.words.localeCompare(b.words));
  return <JournalView key={JSON.stringify(params)} initial={params} kinds={kinds} />;
}
