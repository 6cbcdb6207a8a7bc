import { AgentView } from "@/components/agents/agent-view";

export default async function AgentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <AgentView agentId={id} />;
}
