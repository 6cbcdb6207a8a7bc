import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { Shell } from "@/components/shell/shell";
import "./globals.css";

export const metadata: Metadata = {
  // Each page names itself ("Board · Quorum"), so a tab and the history say where they lead.
  title: { default: "Quorum", template: "%s · Quorum" },
  description: "Where teams of LLM agents work while humans decide.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="antialiased">
        <Providers>
          <Shell>{children}</Shell>
        </Providers>
      </body>
    </html>
  );
}
