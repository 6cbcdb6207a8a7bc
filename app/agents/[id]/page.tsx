import type { Metadata } from "next";
import { AgentView } from "@/components/agents/agent-view";

export const metadata: Metadata = { title: "Agent" };

export default async function AgentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <AgentView agentId={id} />;
}
