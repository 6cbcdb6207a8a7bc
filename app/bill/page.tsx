import type { Metadata } from "next";
import { BillView } from "@/components/bill/bill-view";

export const metadata: Metadata = { title: "Bill" };

export default function BillPage() {
  return <BillView />;
}
