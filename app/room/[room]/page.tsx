import { RoomView } from "@/components/room/room-view";

export default async function NamedRoomPage({ params }: { params: Promise<{ room: string }> }) {
  const { room } = await params;
  return <RoomView room={room} />;
}
