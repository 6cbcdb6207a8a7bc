import { BillView } from "@/components/bill/bill-view";

export default function BillPage() {
  return <BillView />;
}
