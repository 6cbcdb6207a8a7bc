import { RosterView } from "@/components/agents/roster-view";

export default function AgentsPage() {
  return <RosterView />;
}
