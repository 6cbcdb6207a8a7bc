// Numbers as people read them: 12.3k tokens, $0.042, 76 %.
export function formatTokens(n: number): string {
  const abs = Math.abs(n);
  if (abs < 1000) return String(n);
  if (abs < 1_000_000) return `${(n / 1000).toFixed(abs < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(abs < 10_000_000 ? 2 : 1)}M`;
}

export function formatMoney(amount: number, currency: string): string {
  const digits = amount === 0 ? 2 : amount < 0.01 ? 4 : amount < 1 ? 3 : 2;
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amount);
  } catch {
    return `${amount.toFixed(digits)} ${currency}`;
  }
}

export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 100)} %`;
}

/** Amber from 75 % of a budget used, red from 90 % (and when exhausted). */
export function budgetLevel(used: number | null, exhausted = false): "ok" | "warn" | "danger" {
  if (exhausted || (used !== null && used >= 0.9)) return "danger";
  if (used !== null && used >= 0.75) return "warn";
  return "ok";
}
