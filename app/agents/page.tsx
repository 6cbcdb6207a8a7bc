import type { Metadata } from "next";
import { RosterView } from "@/components/agents/roster-view";

export const metadata: Metadata = { title: "Agents" };

export default function AgentsPage() {
  return <RosterView />;
}
