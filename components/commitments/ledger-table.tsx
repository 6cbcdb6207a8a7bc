"use client";
// The ledger as a table: owner, what, due, status, blockers; filtered by owner and status; overdue highlighted.
import { Avatar } from "../avatar";
import type { Me } from "../types";
import { CommitmentActions } from "./commitment-actions";
import { isOverdue, type Commitment, type CommitmentStatus } from "./types";
import { RelativeTime } from "../time";

const STATUS_STYLE: Record<CommitmentStatus, string> = {
  candidate: "bg-neutral-200 text-neutral-800 dark:bg-neutral-800 dark:text-neutral-200",
  confirmed: "bg-blue-100 text-blue-900 dark:bg-blue-900/50 dark:text-blue-100",
  fulfilled: "bg-green-100 text-green-900 dark:bg-green-900/50 dark:text-green-100",
  withdrawn: "bg-neutral-100 text-neutral-500 line-through dark:bg-neutral-900 dark:text-neutral-400",
};

function Due({ commitment, now }: { commitment: Commitment; now: number }) {
  if (!commitment.dueAt) return <span className="text-neutral-400">—</span>;
  const overdue = isOverdue(commitment, now);
  return (
    <span className={overdue ? "font-semibold text-red-700 dark:text-red-400" : ""}>
      <RelativeTime iso={commitment.dueAt} className="" />
      {overdue && <span className="ml-1 rounded bg-red-600 px-1 text-[10px] font-semibold text-white">overdue</span>}
    </span>
  );
}

export function LedgerTable({ items, me, now, criticalPath }: { items: Commitment[]; me: Me; now: number; criticalPath: Set<string> }) {
  const confirmed = items.filter((c) => c.status === "confirmed");
  return (
    <table className="stack-table w-full border-collapse text-sm" data-testid="ledger">
      <thead>
        <tr className="border-b border-neutral-200 text-left text-xs text-neutral-500 dark:border-neutral-800 dark:text-neutral-400">
          <th scope="col" className="py-1.5 pr-2 font-medium">
            #
          </th>
          <th scope="col" className="py-1.5 pr-2 font-medium">
            Owner
          </th>
          <th scope="col" className="py-1.5 pr-2 font-medium">
            What
          </th>
          <th scope="col" className="py-1.5 pr-2 font-medium">
            Due
          </th>
          <th scope="col" className="py-1.5 pr-2 font-medium">
            Status
          </th>
          <th scope="col" className="py-1.5 pr-2 font-medium">
            Waits on
          </th>
          <th scope="col" className="py-1.5 font-medium">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((c) => {
          const overdue = isOverdue(c, now);
          return (
            <tr
              key={c.id}
              data-testid="ledger-row"
              data-number={c.number}
              data-overdue={overdue || undefined}
              className={`border-b border-neutral-100 align-top dark:border-neutral-900 ${overdue ? "bg-red-50 dark:bg-red-950/40" : ""}`}
            >
              <td className="py-1.5 pr-2 font-mono text-xs text-neutral-600 dark:text-neutral-400">
                C-{c.number}
                {criticalPath.has(c.id) && (
                  <span className="ml-1 text-accent-600" title="on the critical path">
                    ◆
                  </span>
                )}
              </td>
              <td data-label="Owner" className="py-1.5 pr-2">
                <span className="flex items-center gap-1.5">
                  <Avatar id={c.ownerId} name={c.ownerName} kind={c.ownerKind} size="sm" />
                  <span className="truncate">{c.ownerName}</span>
                </span>
              </td>
              <td data-label="What" className="max-w-xs py-1.5 pr-2">
                {c.what}
                {c.reason && <p className="text-xs text-neutral-600 dark:text-neutral-400">{c.reason}</p>}
              </td>
              <td data-label="Due" className="py-1.5 pr-2 whitespace-nowrap">
                <Due commitment={c} now={now} />
              </td>
              <td data-label="Status" className="py-1.5 pr-2">
                <span className={`rounded px-1.5 py-0.5 text-[11px] font-semibold ${STATUS_STYLE[c.status]}`}>{c.status}</span>
              </td>
              <td data-label="Waits on" className="py-1.5 pr-2 text-xs">
                {c.blockers.length === 0 ? (
                  <span className="text-neutral-400">—</span>
                ) : (
                  c.blockers.map((b) => (
                    <span key={b.id} title={b.what} className={`mr-1 font-mono ${b.status === "fulfilled" || b.status === "withdrawn" ? "text-neutral-400 line-through" : ""}`}>
                      C-{b.number}
                    </span>
                  ))
                )}
              </td>
              <td data-label="Actions" className="py-1.5">
                <CommitmentActions commitment={c} me={me} confirmed={confirmed} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
