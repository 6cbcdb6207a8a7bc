import { SignedOut } from "@/components/session";

export default function Welcome() {
  return <SignedOut />;
}
