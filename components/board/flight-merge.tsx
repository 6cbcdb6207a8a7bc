"use client";
// A flight's goal: where the work is (the branch in the user's repository, from which commit), and how the
// flight ends, by its human: Merge once the goal is accepted (git's fast-forward or merge commit, refused in
// git's words when it would touch uncommitted work or conflict), or Close without merging.
import { useState } from "react";
import { CopyButton } from "../copy-button";
import { useMe } from "../session";
import { RelativeTime } from "../time";
import { Field, FormButtons, inputClass, Modal, onValidSubmit, ServerError } from "./dialog";
import { SetupPanel } from "./flight-setup";
import { useTaskDetail } from "./use-board";
import { PullRequestPanel } from "./pull-request-panel";
import { type FlightView, useEndFlight, useFlightOf } from "./use-flights";

const STAGE_STYLE: Record<FlightView["stage"], string> = {
  planning: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
  working: "bg-blue-100 text-blue-900 dark:bg-blue-900/60 dark:text-blue-100",
  handed_back: "bg-red-100 text-red-900 dark:bg-red-900/60 dark:text-red-100",
  in_review: "bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100",
  accepted: "bg-green-100 text-green-900 dark:bg-green-900/60 dark:text-green-100",
  merged: "bg-violet-100 text-violet-900 dark:bg-violet-900/60 dark:text-violet-100",
  closed: "bg-neutral-200 text-neutral-800 dark:bg-neutral-800 dark:text-neutral-100",
};

export function StagePill({ flight }: { flight: FlightView }) {
  return (
    <span data-testid="flight-stage" data-stage={flight.stage} className={`shrink-0 rounded px-1.5 py-px text-[11px] font-semibold ${STAGE_STYLE[flight.stage]}`}>
      {flight.stageWords}
    </span>
  );
}

const code = "font-mono text-xs break-all";
const button = "rounded-md px-3 py-1.5 text-sm font-medium disabled:opacity-60";

function WhereItWorks({ flight }: { flight: FlightView }) {
  const base = flight.baseCommit?.slice(0, 7);
  return (
    <p>
      <strong className="font-semibold">Flight {flight.number}</strong> {flight.finished ? "worked" : "works"} on <code className={code}>{flight.branch}</code>
      {(flight.remote ?? flight.source) && (
        <>
          {" "}
          in <code className={code}>{flight.remote ?? flight.source}</code>
        </>
      )}
      {base && (
        <>
          , from <code className={code}>{flight.baseBranch ? `${flight.baseBranch} at ${base}` : base}</code>
        </>
      )}
      {flight.testCommand && (
        <>
          ; tests: <code className={code}>{flight.testCommand}</code>
        </>
      )}
      .
      {flight.pullRequest && (
        <>
          {" "}
          <a href={flight.pullRequest.url} className="text-accent-700 underline dark:text-accent-500" data-testid="flight-pull-request" rel="noreferrer" target="_blank">
            {flight.pullRequest.draft ? "Draft pull request" : "Pull request"} #{flight.pullRequest.number}
          </a>
        </>
      )}
    </p>
  );
}

function CloseDialog({ flight, open, onClose }: { flight: FlightView; open: boolean; onClose: () => void }) {
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const close = useEndFlight<{ reason: string }>(flight.id, "close");
  const leave = () => {
    close.reset();
    setProblem(null);
    onClose();
  };
  const validate = () => {
    const found = reason.trim().length < 3 ? "Say in a few words why it closes without merging." : null;
    setProblem(found);
    return found === null;
  };
  const openGoal = flight.goalTask.status !== "done";
  return (
    <Modal title={`Close flight ${flight.number} without merging`} open={open} onClose={leave}>
      <form onSubmit={onValidSubmit(validate, () => close.mutate({ reason: reason.trim() }, { onSuccess: leave }))} noValidate>
        <p className="mb-3 text-sm text-neutral-700 dark:text-neutral-300">
          The branch <code className={code}>{flight.branch}</code> stays where it is; nothing is merged.
          {openGoal && ` Goal #${flight.goalTask.number} is cancelled, with your reason as its decision record.`}
        </p>
        <Field label="Why" hint="The team and the journal keep this." error={problem}>
          {(control) => <textarea {...control} rows={3} value={reason} onChange={(e) => setReason(e.target.value)} className={inputClass} name="reason" />}
        </Field>
        <ServerError error={close.error} />
        <FormButtons busy={close.isPending} label="Close flight" tone="danger" onCancel={leave} dismiss="Keep it open" />
      </form>
    </Modal>
  );
}

/** The fallback when Merge is not for this flight or this person: the command that does it by hand. */
function MergeYourself({ flight, open }: { flight: FlightView; open: boolean }) {
  if (!flight.mergeCommand) return null;
  return (
    <details className="mt-2 text-xs" open={open}>
      <summary className="cursor-pointer text-neutral-600 dark:text-neutral-300">Merge it yourself</summary>
      <div className="mt-1 flex items-center gap-2">
        <pre className="min-w-0 flex-1 rounded bg-neutral-100 px-2 py-1 font-mono break-all whitespace-pre-wrap dark:bg-neutral-900" data-testid="merge-command">
          {flight.mergeCommand}
        </pre>
        <CopyButton text={flight.mergeCommand} />
      </div>
    </details>
  );
}

function Ending({ flight, mayEnd }: { flight: FlightView; mayEnd: boolean }) {
  const merge = useEndFlight<Record<string, never>>(flight.id, "merge");
  const [closing, setClosing] = useState(false);
  if (flight.merged) {
    return (
      <p className="mt-2" data-testid="flight-merged">
        {flight.pullRequest ? `Merged on its forge as pull request #${flight.pullRequest.number} into ` : "Merged into "}
        <code className={code}>{flight.merged.into}</code> at <code className={code}>{flight.merged.commit.slice(0, 7)}</code> <RelativeTime iso={flight.merged.at} />
      </p>
    );
  }
  if (flight.closed) {
    return (
      <p className="mt-2" data-testid="flight-closed">
        Closed without merging <RelativeTime iso={flight.closed.at} />: {flight.closed.reason}
      </p>
    );
  }
  const accepted = flight.stage === "accepted";
  const back = flight.stage === "handed_back" || flight.stage === "in_review" || accepted;
  const canMerge = accepted && flight.source !== null && flight.remote === null && flight.baseBranch !== null;
  return (
    <>
      {accepted && (
        <p className="mt-2 text-xs text-neutral-600 dark:text-neutral-300">
          {canMerge
            ? `Accepted. Merge brings it into ${flight.baseBranch} as git would — a fast-forward, or a merge commit if ${flight.baseBranch} moved on — and refuses, changing nothing, if it would touch uncommitted work or conflict.`
            : flight.remote
              ? flight.pullRequest
                ? `Accepted, and handed back as pull request #${flight.pullRequest.number} on its forge: review and merge it there.`
                : `Accepted. Its branch ${flight.branch} is on ${flight.remote}: merge it there, with a pull request or as you usually do.`
              : "Accepted. The flight did not start from a branch, so merge it where you want it yourself."}
        </p>
      )}
      {flight.stage === "in_review" && (
        <p className="mt-2 text-xs text-neutral-600 dark:text-neutral-300">
          {!flight.remote
            ? "Accept the goal to merge it; your checkout is untouched until you do."
            : flight.pullRequest?.draft
              ? `Approve the goal to mark draft pull request #${flight.pullRequest.number} ready for review on its forge.`
              : "Approve the goal to open its pull request on its forge."}
        </p>
      )}
      {mayEnd && back && (
        <div className="mt-2 flex flex-wrap items-center gap-2">
          {canMerge && (
            <button type="button" disabled={merge.isPending} onClick={() => merge.mutate({})} className={`${button} bg-accent-600 text-white hover:bg-accent-700`}>
              {merge.isPending ? "Merging…" : `Merge into ${flight.baseBranch}`}
            </button>
          )}
          <button
            type="button"
            onClick={() => setClosing(true)}
            className={`${button} border border-neutral-300 hover:bg-neutral-100 dark:border-neutral-700 dark:hover:bg-neutral-800`}
          >
            Close without merging
          </button>
        </div>
      )}
      {merge.error && (
        <div
          role="alert"
          data-testid="merge-refused"
          className="mt-2 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/50 dark:text-red-100"
        >
          <p className="font-medium">Not merged: nothing changed.</p>
          <pre className="mt-1 font-mono text-xs whitespace-pre-wrap">{merge.error.message}</pre>
        </div>
      )}
      <MergeYourself flight={flight} open={accepted && !canMerge} />
      <CloseDialog flight={flight} open={closing} onClose={() => setClosing(false)} />
    </>
  );
}

/** The flight panel when `taskId` is a flight's goal; nothing otherwise. */
export function FlightMerge({ taskId }: { taskId: string }) {
  const found = useFlightOf(taskId);
  const me = useMe();
  const goal = useTaskDetail(found?.isGoal ? taskId : null);
  if (!found?.isGoal) return null;
  const { flight } = found;
  const mayEnd = me.data?.kind === "human" && goal.data?.task.approverId === me.data.id;
  return (
    <>
      <section aria-label={`Flight ${flight.number}`} data-testid="flight-merge" className="mb-3 rounded-lg border border-neutral-200 p-3 text-sm dark:border-neutral-800">
        <div className="mb-1 flex items-center gap-2">
          <StagePill flight={flight} />
        </div>
        <WhereItWorks flight={flight} />
        {flight.forgeRefusal && (
          <p
            role="alert"
            data-testid="flight-forge-refusal"
            className="mt-2 rounded border border-red-300 bg-red-50 px-2 py-1 text-xs text-red-900 dark:border-red-800 dark:bg-red-950/40 dark:text-red-200"
          >
            <span className="block">{flight.forgeRefusal.reason}</span>
            Quorum tries again at the team's next turn; the forge's token is in Settings → Forges. <RelativeTime iso={flight.forgeRefusal.since} />
          </p>
        )}
        {flight.pullRequest && <PullRequestPanel pull={flight.pullRequest} />}
        <Ending flight={flight} mayEnd={mayEnd} />
      </section>
      {flight.setup && <SetupPanel setup={flight.setup} />}
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
