import { JournalView } from "@/components/journal/journal-view";

export default function JournalPage() {
  return <JournalView />;
}
