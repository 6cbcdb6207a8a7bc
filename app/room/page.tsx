import type { Metadata } from "next";
import { RoomView } from "@/components/room/room-view";

export const metadata: Metadata = { title: "Room" };

export default function RoomPage() {
  return <RoomView room="general" />;
}
