// How Quorum's own messages write a moment: to the minute, in UTC ("2026-12-01 20:03 UTC"), so that an
// agent and a human in any zone read the same time from the stored text. The browser shows its own times
// relative, with the local time on hover (components/time.tsx).

export function utcMinute(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
