import { CommitmentsView } from "@/components/commitments/commitments-view";

export default function CommitmentsPage() {
  return <CommitmentsView />;
}
