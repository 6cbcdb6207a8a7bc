// One line per event for the dense list: what happened, in words, from the event's data.
import type { JournalEntry } from "../types";

type Data = Record<string, unknown>;
const s = (v: unknown, n = 120) => String(v ?? "").slice(0, n);

const BY_KIND: Record<string, (d: Data) => string> = {
  MessageSent: (d) => `#${d.room} seq ${d.seq}${d.performative ? ` ${d.performative}` : ""}: ${s(d.body)}`,
  PrincipalCreated: (d) => `${d.kind} ${d.name}${d.role ? ` (${d.role})` : ""}`,
  RoomCreated: (d) => `#${d.room}`,
  GateRejected: (d) => `${d.gate ?? d.reason}: ${s(d.message)}`,
  RunStarted: (d) => `model ${d.model}: ${s(d.task, 100)}`,
  ModelCalled: (d) => `turn ${d.turn}, ${(d.mail as unknown[] | undefined)?.length ?? 0} mail`,
  ModelResponded: (d) => {
    const calls = (d.toolCalls as { name: string }[] | undefined) ?? [];
    return calls.length ? `calls ${calls.map((c) => c.name).join(", ")}` : `says: ${s(d.text)}`;
  },
  BudgetDebited: (d) => `${d.amount} tokens (${d.inputTokens} in, ${d.outputTokens} out) on ${d.model}`,
  ToolDispatched: (d) => `${d.tool} (attempt ${d.attempt})${d.writes ? ` writes ${d.writes}` : ""}`,
  ToolReturned: (d) => {
    const o = d.observation as { is_error: boolean; reason?: string } | undefined;
    return `${d.tool}: ${o?.is_error ? `error — ${s(o.reason)}` : "ok"}`;
  },
  AgentFinished: (d) => {
    const r = d.result as { status: string; summary?: string; reason?: string } | undefined;
    return `${r?.status}${r?.summary ? `: ${s(r.summary)}` : r?.reason ? `: ${s(r.reason)}` : ""}`;
  },
  BudgetExhausted: (d) => {
    const r = d.result as { budgetSpent: number; allowance: number } | undefined;
    return `halted: spent ${r?.budgetSpent} of ${r?.allowance}`;
  },
  TaskCreated: (d) => `#${d.number} ${s(d.title)}`,
  TaskReviewed: (d) => `#${d.number} ${d.verdict}${d.reason ? `: ${s(d.reason)}` : ""}`,
};

export function summary(entry: JournalEntry): string {
  const data = (entry.data ?? {}) as Data;
  return BY_KIND[entry.kind]?.(data) ?? JSON.stringify(data).slice(0, 140);
}
