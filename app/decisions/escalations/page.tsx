import type { Metadata } from "next";
import { EscalationsView } from "@/components/decisions/escalations-view";

export const metadata: Metadata = { title: "Escalations" };

export default function EscalationsPage() {
  return <EscalationsView />;
}
