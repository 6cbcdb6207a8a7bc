"use client";
// What a task changed, read like a pull request: files with +/− counts, unified hunks, light syntax
// colour, each file collapsible, and the reviewers' line comments in place (./diff-comments.tsx). Every piece
// of text is rendered as text (spans), never as HTML.
import { useQuery } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { CommentCard, CommentForm, type Draft, type LineComment, type Side, useLineComments } from "./diff-comments";
import type { DiffFile, DiffHunk, TaskDiff } from "./types";

const TOKEN =
  /(\/\/.*$|#.*$|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`|\b(?:const|let|var|function|return|if|else|for|while|import|export|from|class|new|await|async|true|false|null|undefined|def|in|of|throw|try|catch)\b|\b\d+(?:\.\d+)?\b)/g;

function tone(token: string): string {
  if (token.startsWith("//") || token.startsWith("#")) return "text-neutral-500 italic dark:text-neutral-400";
  if (/^["'`]/.test(token)) return "text-emerald-800 dark:text-emerald-300";
  if (/^\d/.test(token)) return "text-amber-800 dark:text-amber-300";
  return "font-semibold text-violet-800 dark:text-violet-300";
}

/** A line split into coloured tokens; the pieces keep their text exactly. */
function Highlighted({ text }: { text: string }) {
  const parts: { at: number; text: string; token: boolean }[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const at = match.index ?? 0;
    if (at > last) parts.push({ at: last, text: text.slice(last, at), token: false });
    parts.push({ at, text: match[0], token: true });
    last = at + match[0].length;
  }
  if (last < text.length) parts.push({ at: last, text: text.slice(last), token: false });
  return (
    <>
      {parts.map((p) =>
        p.token ? (
          <span key={p.at} className={tone(p.text)}>
            {p.text}
          </span>
        ) : (
          <span key={p.at}>{p.text}</span>
        ),
      )}
    </>
  );
}

const LINE_STYLE = {
  add: "bg-green-50 dark:bg-green-950/40",
  del: "bg-red-50 dark:bg-red-950/40",
  context: "",
} as const;
const MARK = { add: "+", del: "−", context: " " } as const;

/** Each line with its number (the new file's; the old one's for a removed line), that side, and a key unique in its hunk. */
function numbered(hunk: DiffHunk) {
  const start = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(hunk.header);
  let oldNo = Number(start?.[1] ?? 1);
  let newNo = Number(start?.[2] ?? 1);
  return hunk.lines.map((line) => {
    const number = line.kind === "del" ? oldNo : newNo;
    const side: Side = line.kind === "del" ? "old" : "new";
    const key = `${line.kind}:${oldNo}:${newNo}`;
    if (line.kind !== "add") oldNo++;
    if (line.kind !== "del") newNo++;
    return { line, key, number, side };
  });
}

/** What a file's lines need to show and take comments: the task's comments, who may write, the open draft. */
interface Commenting {
  taskId: string;
  comments: LineComment[];
  canComment: boolean;
  myId: string | null;
  withdraw: (id: string) => void;
  draft: Draft | null;
  pick: (path: string, side: Side, line: number, extend: boolean) => void;
  close: () => void;
}

const at = (c: { path: string; side: Side }, path: string, side: Side) => c.path === path && c.side === side;

function FileDiff({ file, review }: { file: DiffFile; review: Commenting }) {
  const { comments, draft } = review;
  const mineHere = comments.filter((c) => c.path === file.path);
  const shownKeys = new Set(file.hunks.flatMap((hunk) => numbered(hunk).map(({ side, number }) => `${side}:${number}`)));
  const elsewhere = mineHere.filter((c) => !shownKeys.has(`${c.side}:${c.endLine}`));
  const cards = (list: LineComment[]) => list.map((c) => <CommentCard key={c.id} comment={c} mine={c.authorId === review.myId} onWithdraw={() => review.withdraw(c.id)} />);
  return (
    <details open className="rounded border border-neutral-200 dark:border-neutral-800" data-testid="diff-file">
      <summary className="flex cursor-pointer flex-wrap items-center gap-2 bg-neutral-50 px-2 py-1 text-xs dark:bg-neutral-900">
        <span className="min-w-0 font-mono break-all">{file.from ? `${file.from} → ${file.path}` : file.path}</span>
        {file.status !== "modified" && <span className="rounded bg-neutral-200 px-1 dark:bg-neutral-800">{file.status}</span>}
        <span className="ml-auto font-mono tabular-nums">
          <span className="text-green-800 dark:text-green-300">+{file.additions}</span> <span className="text-red-800 dark:text-red-300">−{file.deletions}</span>
        </span>
      </summary>
      {file.binary ? (
        <p className="p-2 text-xs text-neutral-600 dark:text-neutral-300">A binary file: not shown.</p>
      ) : !file.shown ? (
        <p className="p-2 text-xs text-neutral-600 dark:text-neutral-300" data-testid="diff-file-not-shown">
          Too large to show here: the branch holds the whole change.
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full font-mono text-xs">
            {file.hunks.map((hunk) => (
              <tbody key={hunk.header}>
                <tr>
                  <td colSpan={3} className="bg-sky-50 px-2 py-0.5 text-sky-900 dark:bg-sky-950/40 dark:text-sky-200">
                    {hunk.header}
                  </td>
                </tr>
                {numbered(hunk).map(({ line, key, number, side }) => {
                  const ending = mineHere.filter((c) => c.side === side && c.endLine === number);
                  const drafting = draft && at(draft, file.path, side) && draft.endLine === number;
                  const inDraft = draft && at(draft, file.path, side) && number >= draft.line && number <= draft.endLine;
                  return (
                    <Fragment key={key}>
                      <tr className={inDraft ? "bg-amber-100 dark:bg-amber-900/40" : LINE_STYLE[line.kind]}>
                        <td className="w-10 min-w-10 px-1 text-right text-neutral-500 tabular-nums select-none dark:text-neutral-400">
                          {review.canComment ? (
                            <button
                              type="button"
                              data-testid="comment-line"
                              aria-label={`Comment on ${file.path} line ${number}${side === "old" ? " (removed)" : ""}`}
                              title="Comment on this line (shift-click another for a range)"
                              onClick={(e) => review.pick(file.path, side, number, e.shiftKey)}
                              className="w-full text-right hover:text-accent-700 hover:underline dark:hover:text-accent-500"
                            >
                              {number}
                            </button>
                          ) : (
                            number
                          )}
                        </td>
                        <td
                          className="w-4 min-w-4 px-1 text-neutral-600 select-none dark:text-neutral-300"
                          aria-label={line.kind === "add" ? "added" : line.kind === "del" ? "removed" : undefined}
                        >
                          {MARK[line.kind]}
                        </td>
                        <td className="pr-2 whitespace-pre">
                          <Highlighted text={line.text} />
                        </td>
                      </tr>
                      {(ending.length > 0 || drafting) && (
                        <tr>
                          <td colSpan={3} className="space-y-1.5 bg-white px-2 py-1.5 whitespace-normal dark:bg-neutral-950">
                            {cards(ending)}
                            {drafting && <CommentForm draft={draft} taskId={review.taskId} onDone={review.close} />}
                          </td>
                        </tr>
                      )}
                    </Fragment>
                  );
                })}
              </tbody>
            ))}
          </table>
        </div>
      )}
      {elsewhere.length > 0 && (
        <div className="space-y-1.5 border-t border-neutral-200 p-2 dark:border-neutral-800">
          <p className="text-xs text-neutral-600 dark:text-neutral-300">On lines this diff no longer shows:</p>
          {cards(elsewhere)}
        </div>
      )}
    </details>
  );
}

export function DiffView({ taskId }: { taskId: string }) {
  const diff = useQuery({ queryKey: queryKeys.taskDiff(taskId), queryFn: () => apiGet<TaskDiff>(`/api/tasks/${taskId}/diff`) });
  const { comments, canComment, myId, withdraw } = useLineComments(taskId);
  const [draft, setDraft] = useState<Draft | null>(null);
  const review: Commenting = {
    taskId,
    comments,
    canComment,
    myId,
    withdraw: (id) => withdraw.mutate(id),
    draft: canComment ? draft : null,
    pick: (path, side, line, extend) =>
      setDraft((open) =>
        extend && open && at(open, path, side) ? { path, side, line: Math.min(open.line, line), endLine: Math.max(open.endLine, line) } : { path, side, line, endLine: line },
      ),
    close: () => setDraft(null),
  };
  if (diff.isPending) return <div className="h-24 animate-pulse rounded bg-neutral-100 dark:bg-neutral-800" aria-busy />;
  if (!diff.data) return null;
  const d = diff.data;
  if (!d.available) return <p className="text-sm text-neutral-600 dark:text-neutral-300">{d.source}</p>;
  return (
    <div className="space-y-2" data-testid="diff">
      <p className="text-xs text-neutral-700 dark:text-neutral-300">
        {d.files.length} {d.files.length === 1 ? "file" : "files"} changed, <span className="font-mono text-green-800 dark:text-green-300">+{d.additions}</span>{" "}
        <span className="font-mono text-red-800 dark:text-red-300">−{d.deletions}</span> — {d.source}
        {d.truncated && " (cut: the diff is too large to show whole)"}
      </p>
      {d.commits.length > 0 && (
        <details className="rounded border border-neutral-200 text-xs dark:border-neutral-800" data-testid="diff-commits">
          <summary className="cursor-pointer bg-neutral-50 px-2 py-1 dark:bg-neutral-900">
            {d.commits.length} {d.commits.length === 1 ? "commit" : "commits"} reached this branch: each is listed, so none arrives unseen
          </summary>
          <ol className="divide-y divide-neutral-100 dark:divide-neutral-800">
            {d.commits.map((c) => (
              <li key={c.sha} className="flex flex-wrap gap-2 px-2 py-1" data-testid="diff-commit">
                <span className="font-mono text-neutral-500 dark:text-neutral-400">{c.sha.slice(0, 7)}</span>
                <span className="min-w-0 break-words">{c.subject}</span>
                <span className="ml-auto text-neutral-600 dark:text-neutral-300">{c.author}</span>
              </li>
            ))}
          </ol>
        </details>
      )}
      {canComment && <p className="text-xs text-neutral-600 dark:text-neutral-300">Click a line's number to comment on it; your comments go to the owner with your verdict.</p>}
      {d.files.map((file) => (
        <FileDiff key={file.path} file={file} review={review} />
      ))}
    </div>
  );
}
