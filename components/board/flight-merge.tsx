"use client";
// A flight's goal under review: where the work is (the branch in the user's repository, from which commit)
// and how to take it. The team never merges into the user's checkout; the human does, with this command.
import { CopyButton } from "../copy-button";
import { SetupPanel } from "./flight-setup";
import { type FlightView, useFlightOf } from "./use-flights";

function MergeInstructions({ flight }: { flight: FlightView }) {
  const base = flight.baseCommit?.slice(0, 7);
  return (
    <section aria-label={`Flight ${flight.number}`} data-testid="flight-merge" className="mb-3 rounded-lg border border-neutral-200 p-3 text-sm dark:border-neutral-800">
      <p>
        <strong className="font-semibold">Flight {flight.number}</strong> works on <code className="font-mono text-xs">{flight.branch}</code>
        {flight.source && (
          <>
            {" "}
            in <code className="font-mono text-xs break-all">{flight.source}</code>
          </>
        )}
        {base && (
          <>
            , from <code className="font-mono text-xs">{base}</code>
          </>
        )}
        {flight.testCommand && (
          <>
            ; tests: <code className="font-mono text-xs">{flight.testCommand}</code>
          </>
        )}
        .
      </p>
      {flight.mergeCommand && (
        <>
          <p className="mt-2 text-xs text-neutral-600 dark:text-neutral-300">
            Your checkout is untouched. To take the work once you accept it, merge the branch (or push it and open a pull request):
          </p>
          <div className="mt-1 flex items-center gap-2">
            <pre className="min-w-0 flex-1 rounded bg-neutral-100 px-2 py-1 font-mono text-xs break-all whitespace-pre-wrap dark:bg-neutral-900" data-testid="merge-command">
              {flight.mergeCommand}
            </pre>
            <CopyButton text={flight.mergeCommand} />
          </div>
        </>
      )}
    </section>
  );
}

/** The merge instructions when `taskId` is a flight's goal; nothing otherwise. */
export function FlightMerge({ taskId }: { taskId: string }) {
  const found = useFlightOf(taskId);
  if (!found?.isGoal) return null;
  return (
    <>
      <MergeInstructions flight={found.flight} />
      {found.flight.setup && <SetupPanel setup={found.flight.setup} />}
    </>
  );
}

/** The flight a task belongs to, as a small mark on its card. */
export function FlightMark({ taskId }: { taskId: string }) {
  const found = useFlightOf(taskId);
  if (!found) return null;
  return (
    <span data-testid="flight-mark" className="rounded bg-violet-50 px-1 text-violet-900 dark:bg-violet-950/50 dark:text-violet-200">
      {found.isGoal ? `Flight ${found.flight.number} goal` : `Flight ${found.flight.number}`}
    </span>
  );
}
