"use client";
// Line comments in the diff, as on a pull request: the task's approver clicks a line's number (shift-click a
// second one for a range) and writes what should change; comments show under the line they end on, pending
// until the verdict takes them along (domain/tasks/comments.ts). Text is rendered as text, never as HTML.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { ReviewCommentView } from "@/domain/tasks/comments";
import { type ApiError, apiDelete, apiPost } from "../api";
import { queryKeys } from "../query-keys";
import { useMe } from "../session";
import { RelativeTime } from "../time";
import { useFocusWhen } from "../use-focus-when";
import { inputClass, ServerError } from "./dialog";
import { useTaskDetail } from "./use-board";

export type LineComment = ReviewCommentView;
export type Side = "new" | "old";

/** Where a comment is being written: one line, or a range of one side of one file. */
export interface Draft {
  path: string;
  side: Side;
  line: number;
  endLine: number;
}

/** The task's line comments, and whether the signed-in person may write them (its approver, while in review). */
export function useLineComments(taskId: string) {
  const detail = useTaskDetail(taskId);
  const me = useMe();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.taskDetail(taskId) });
  const add = useMutation<LineComment, ApiError, Draft & { body: string }>({
    mutationFn: ({ endLine, line, ...rest }) => apiPost<LineComment>(`/api/tasks/${taskId}/comments`, { ...rest, line, ...(endLine > line && { endLine }) }),
    onSuccess: refresh,
  });
  const withdraw = useMutation<void, ApiError, string>({ mutationFn: (id) => apiDelete(`/api/tasks/${taskId}/comments/${id}`), onSuccess: refresh });
  const task = detail.data?.task;
  return {
    comments: detail.data?.comments ?? [],
    canComment: !!task && !!me.data && task.status === "review" && task.approverId === me.data.id,
    myId: me.data?.id ?? null,
    add,
    withdraw,
  };
}

export function CommentCard({ comment, mine, onWithdraw }: { comment: LineComment; mine: boolean; onWithdraw: () => void }) {
  const lines = comment.endLine > comment.line ? `lines ${comment.line}–${comment.endLine}` : `line ${comment.line}`;
  return (
    <div data-testid="line-comment" className="rounded border border-amber-300 bg-amber-50 px-2 py-1.5 font-sans text-sm dark:border-amber-800 dark:bg-amber-950/40">
      <p className="flex flex-wrap items-baseline gap-x-2 text-xs text-neutral-700 dark:text-neutral-300">
        <span className="font-semibold">{comment.authorName}</span>
        <span>
          on {lines}
          {comment.side === "old" && " (removed)"}
        </span>
        <RelativeTime iso={comment.createdAt} />
        {comment.pending && (
          <span className="rounded bg-amber-200 px-1 text-[11px] font-semibold text-amber-950 dark:bg-amber-800 dark:text-amber-50" title="It goes to the owner with your verdict">
            Pending
          </span>
        )}
        {comment.pending && mine && (
          <button type="button" onClick={onWithdraw} className="ml-auto text-xs text-red-800 hover:underline dark:text-red-300">
            Withdraw
          </button>
        )}
      </p>
      <p className="mt-0.5 whitespace-pre-wrap break-words">{comment.body}</p>
    </div>
  );
}

export function CommentForm({ draft, taskId, onDone }: { draft: Draft; taskId: string; onDone: () => void }) {
  const { add } = useLineComments(taskId);
  const [body, setBody] = useState("");
  // The form opens because the reviewer asked to write here: the field takes the focus.
  const field = useFocusWhen<HTMLTextAreaElement>(true);
  const where = draft.endLine > draft.line ? `${draft.path} lines ${draft.line}–${draft.endLine}` : `${draft.path} line ${draft.line}`;
  return (
    <form
      data-testid="comment-form"
      className="font-sans"
      onSubmit={(e) => {
        e.preventDefault();
        if (!body.trim()) return;
        add.mutate({ ...draft, body: body.trim() }, { onSuccess: onDone });
      }}
    >
      <label className="mb-1 block text-xs text-neutral-700 dark:text-neutral-300">
        Comment on {where}
        {draft.side === "old" && " (removed)"}
        <textarea
          ref={field}
          rows={3}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          className={`${inputClass} mt-1`}
          placeholder="What should change here? Shift-click another line number to comment on a range."
        />
      </label>
      <ServerError error={add.error} />
      <div className="mt-1 flex justify-end gap-2">
        <button
          type="button"
          onClick={onDone}
          className="rounded-md border border-neutral-300 px-2.5 py-1 text-xs hover:bg-neutral-100 dark:border-neutral-700 dark:hover:bg-neutral-800"
        >
          Cancel
        </button>
        <button
          type="submit"
          disabled={add.isPending || !body.trim()}
          className="rounded-md bg-accent-600 px-2.5 py-1 text-xs font-medium text-white hover:bg-accent-700 disabled:opacity-60"
        >
          {add.isPending ? "Saving…" : "Comment"}
        </button>
      </div>
    </form>
  );
}
