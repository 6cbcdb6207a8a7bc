import type { Metadata } from "next";
import { PrinciplesPanel } from "@/components/memory/principles-panel";

export const metadata: Metadata = { title: "Principles" };

// Until the Agents page exists, its principles panel lives here.
export default function PrinciplesPage() {
  return (
    <div className="h-full overflow-y-auto px-6 py-4">
      <div className="mx-auto max-w-3xl">
        <PrinciplesPanel />
      </div>
    </div>
  );
}
