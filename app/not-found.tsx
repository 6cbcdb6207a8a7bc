import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Not found" };

export default function NotFound() {
  return (
    <div className="mx-auto mt-16 max-w-md px-4 text-center" data-testid="not-found">
      <p className="font-mono text-sm text-neutral-600 dark:text-neutral-300">404</p>
      <h1 className="mt-2 text-xl font-semibold">Nothing here</h1>
      <p className="mt-2 text-sm text-neutral-700 dark:text-neutral-300">This page does not exist in Quorum. The team is in the Room; what waits for you is in the top strip.</p>
      <Link href="/room" className="mt-6 inline-block rounded-md bg-accent-600 px-4 py-2 text-sm font-medium text-white hover:bg-accent-700">
        Back to the Room
      </Link>
    </div>
  );
}
