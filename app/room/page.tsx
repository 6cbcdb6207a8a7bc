import { RoomView } from "@/components/room/room-view";

export default function RoomPage() {
  return <RoomView room="general" />;
}
