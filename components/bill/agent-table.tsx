// The bill per agent: tokens in (and of them cached, with what they cost) and out, money, runs, and the budget bar; a row per agent, a total.
import Link from "next/link";
import { Avatar } from "../avatar";
import { BudgetBar } from "./budget-bar";
import { formatMoney, formatTokens } from "./format";
import type { BillView, Line } from "./types";

export function Money({ line, currency }: { line: Pick<Line, "cost" | "unpricedTokens" | "tokens">; currency: string }) {
  // Nothing priced (nothing spent yet, or no price for its model): "—", as everywhere without prices, never "$0.00".
  if (line.unpricedTokens === line.tokens)
    return (
      <span className="text-neutral-400" title={line.tokens > 0 ? "no price for its model: set QUORUM_PRICES" : "nothing spent yet"}>
        —
      </span>
    );
  return (
    <span title={line.unpricedTokens ? `${formatTokens(line.unpricedTokens)} tokens have no price (QUORUM_PRICES)` : undefined}>
      {formatMoney(line.cost, currency)}
      {line.unpricedTokens > 0 && <span className="text-neutral-400">*</span>}
    </span>
  );
}

/** What the cached tokens were billed at (their share of the cost); a dash when none were cached or none priced. */
export function CachedMoney({ line, currency }: { line: Pick<Line, "cachedCost" | "cachedTokens" | "unpricedTokens" | "tokens">; currency: string }) {
  if (line.cachedTokens === 0 || line.unpricedTokens === line.tokens) return <span className="text-neutral-400">—</span>;
  return <span title="the cached input tokens, at each model's cached rate">{formatMoney(line.cachedCost, currency)}</span>;
}

/**
 * Marks a line some of whose tokens an outside agent reported itself (Claude Code, Codex…): Quorum counted them
 * as told, it did not measure them. Words, not only a colour; the figures are in the title.
 */
export function SelfReported({ line }: { line: Pick<Line, "selfReportedTokens" | "selfReportedCalls" | "tokens"> }) {
  if (line.selfReportedCalls === 0) return null;
  const all = line.selfReportedTokens === line.tokens;
  const calls = `${line.selfReportedCalls} call${line.selfReportedCalls === 1 ? "" : "s"}`;
  return (
    <span
      className="whitespace-nowrap rounded border border-dashed border-neutral-400 px-1.5 text-xs font-normal text-neutral-600 dark:border-neutral-500 dark:text-neutral-300"
      title={`${formatTokens(line.selfReportedTokens)} tokens in ${calls} reported by the agent itself: Quorum counts them as told and did not measure them`}
      data-testid="self-reported"
      data-tokens={line.selfReportedTokens}
    >
      {all ? "self-reported" : `${formatTokens(line.selfReportedTokens)} self-reported`}
    </span>
  );
}

/** Marks tokens scripted runs estimated: no model was called, so they are simulated, shown apart from spend. */
export function Simulated({ line }: { line: Pick<Line, "simulatedTokens" | "tokens"> }) {
  if (line.simulatedTokens === 0) return null;
  return (
    <span
      className="block text-xs font-normal text-neutral-500 dark:text-neutral-400"
      title="scripted runs: no model was called, their tokens are estimates (they count against budgets, never as money)"
      data-testid="simulated"
      data-tokens={line.simulatedTokens}
    >
      {line.simulatedTokens === line.tokens ? "all simulated" : `${formatTokens(line.simulatedTokens)} simulated`}
    </span>
  );
}

const th = "px-3 py-2 text-left text-xs font-medium text-neutral-500 dark:text-neutral-400";
const td = "px-3 py-2 tabular-nums";

export function AgentTable({ bill }: { bill: BillView }) {
  if (bill.agents.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-neutral-300 p-4 text-sm text-neutral-600 dark:border-neutral-700 dark:text-neutral-300">
        No agent has spent anything yet. Each model call an agent makes is debited here as it happens; `npm start` runs the demo team.
      </p>
    );
  }
  return (
    <div className="overflow-x-auto rounded-lg border border-neutral-200 dark:border-neutral-800">
      <table className="stack-table w-full text-sm" data-testid="bill-agents">
        <thead className="bg-neutral-50 dark:bg-neutral-900">
          <tr>
            <th className={th}>Agent</th>
            <th className={`${th} text-right`}>Tokens in</th>
            <th className={`${th} text-right`}>Cached</th>
            <th className={`${th} text-right`}>Cached cost</th>
            <th className={`${th} text-right`}>Tokens out</th>
            <th className={`${th} text-right`}>Total</th>
            <th className={`${th} text-right`}>Cost</th>
            <th className={`${th} text-right`}>Runs</th>
            <th className={th} title="Its own allowance, for work outside flights: a run in a flight draws on the flight's">
              Own allowance
            </th>
          </tr>
        </thead>
        <tbody aria-live="polite">
          {bill.agents.map((a) => (
            <tr key={a.agentId} className="border-t border-neutral-100 dark:border-neutral-900" data-testid="bill-agent-row" data-agent={a.agentName ?? a.agentId}>
              <td data-label="Agent" className="px-3 py-2">
                <Link href={`/agents/${a.agentId}`} className="flex flex-wrap items-center gap-x-2 gap-y-1 hover:underline">
                  <Avatar id={a.agentId} name={a.agentName ?? "?"} kind="agent" size="sm" />
                  <span className="font-medium">{a.agentName ?? a.agentId.slice(0, 8)}</span>
                  {a.role && <span className="whitespace-nowrap text-xs text-neutral-500">{a.role}</span>}
                  <SelfReported line={a} />
                </Link>
              </td>
              <td data-label="Tokens in" className={`${td} text-right`}>
                {formatTokens(a.inputTokens)}
              </td>
              <td
                data-label="Cached"
                className={`${td} text-right`}
                data-testid="agent-cached"
                data-tokens={a.cachedTokens}
                title="input tokens read from the prompt cache, of the tokens in"
              >
                {formatTokens(a.cachedTokens)}
              </td>
              <td data-label="Cached cost" className={`${td} text-right`}>
                <CachedMoney line={a} currency={bill.currency} />
              </td>
              <td data-label="Tokens out" className={`${td} text-right`}>
                {formatTokens(a.outputTokens)}
              </td>
              <td data-label="Total" className={`${td} text-right font-medium`} data-testid="agent-tokens" data-tokens={a.tokens}>
                {formatTokens(a.tokens)}
                <Simulated line={a} />
              </td>
              <td data-label="Cost" className={`${td} text-right`}>
                <Money line={a} currency={bill.currency} />
              </td>
              <td data-label="Runs" className={`${td} text-right`}>
                {a.runs}
              </td>
              <td data-label="Own allowance" className="px-3 py-2">
                <BudgetBar allowance={a.allowance} spent={a.budgetSpent} exhausted={a.exhausted} label={`${a.agentName}'s own allowance`} />
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t border-neutral-200 font-medium dark:border-neutral-800">
          <tr>
            <td data-label="Agent" className="px-3 py-2">
              All agents
            </td>
            <td data-label="Tokens in" className={`${td} text-right`}>
              {formatTokens(bill.total.inputTokens)}
            </td>
            <td data-label="Cached" className={`${td} text-right`} data-testid="total-cached" data-tokens={bill.total.cachedTokens}>
              {formatTokens(bill.total.cachedTokens)}
            </td>
            <td data-label="Cached cost" className={`${td} text-right`}>
              <CachedMoney line={bill.total} currency={bill.currency} />
            </td>
            <td data-label="Tokens out" className={`${td} text-right`}>
              {formatTokens(bill.total.outputTokens)}
            </td>
            <td data-label="Total" className={`${td} text-right`} data-testid="total-tokens" data-tokens={bill.total.tokens}>
              {formatTokens(bill.total.tokens)}
              <Simulated line={bill.total} />
            </td>
            <td data-label="Cost" className={`${td} text-right`}>
              <Money line={bill.total} currency={bill.currency} />
            </td>
            <td data-label="Runs" className={`${td} text-right`}>
              {bill.agents.reduce((n, a) => n + a.runs, 0)}
            </td>
            <td data-label="Own allowance" className="px-3 py-2 text-xs font-normal text-neutral-500 dark:text-neutral-400">
              flights' allowances: above
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
