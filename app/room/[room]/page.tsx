import type { Metadata } from "next";
import { RoomView } from "@/components/room/room-view";

type Params = { params: Promise<{ room: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `#${decodeURIComponent((await params).room)} · Room` };
}

export default async function NamedRoomPage({ params }: Params) {
  const { room } = await params;
  return <RoomView room={room} />;
}
