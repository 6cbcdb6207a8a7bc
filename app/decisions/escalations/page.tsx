import { EscalationsView } from "@/components/decisions/escalations-view";

export default function EscalationsPage() {
  return <EscalationsView />;
}
