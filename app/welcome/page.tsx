import type { Metadata } from "next";
import { Welcome as WelcomeView } from "@/components/welcome";

export const metadata: Metadata = { title: "Sign in" };

export default function Welcome() {
  return <WelcomeView />;
}
