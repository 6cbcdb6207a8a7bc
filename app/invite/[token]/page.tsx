import type { Metadata } from "next";
import { Invitation } from "@/components/invitation";

export const metadata: Metadata = { title: "Join" };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <Invitation token={token} />;
}
