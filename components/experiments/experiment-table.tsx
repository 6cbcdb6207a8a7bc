"use client";
// One saved table: a table on wide screens, and on a phone each row as a card of "column: value" lines, so
// nothing scrolls sideways.
import type { SavedExperiment } from "./types";

export function ExperimentTable({ result }: { result: SavedExperiment }) {
  const { columns, rows } = result;
  return (
    <>
      <div className="hidden md:block">
        <table className="w-full border-collapse text-sm" data-testid="experiment-table">
          <thead>
            <tr className="border-b border-neutral-200 text-left text-xs text-neutral-600 dark:border-neutral-800 dark:text-neutral-300">
              {columns.map((column) => (
                <th key={column} scope="col" className="px-2 py-1.5 font-medium">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.join("\u0000")} className="border-b border-neutral-100 align-top last:border-0 dark:border-neutral-900" data-testid="experiment-row">
                {row.map((cell, i) => (
                  <td key={columns[i] ?? i} className={`px-2 py-1.5 ${i === 0 ? "font-medium" : "tabular-nums"}`}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="space-y-2 md:hidden">
        {rows.map((row) => (
          <li key={row.join("\u0000")} className="rounded border border-neutral-200 p-2 text-sm dark:border-neutral-800">
            <p className="font-medium">{row[0]}</p>
            <dl className="mt-1 grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)] gap-x-2 gap-y-0.5 text-xs">
              {row.slice(1).map((cell, i) => (
                <div key={columns[i + 1] ?? i} className="contents">
                  <dt className="text-neutral-500 dark:text-neutral-400">{columns[i + 1]}</dt>
                  <dd className="break-words tabular-nums">{cell}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}
