"use client";
// The board's server state: one paginated list per column, a task's detail, and its actions.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiGet, apiPatch, apiPost, type ApiError } from "../api";
import { queryKeys } from "../query-keys";
import type { Page } from "../types";
import type { Task, TaskDetail, TaskStatus } from "./types";

const PAGE = 50;

export function useColumn(status: TaskStatus, enabled = true) {
  return useInfiniteQuery({
    queryKey: queryKeys.taskColumn(status),
    queryFn: ({ pageParam }) => apiGet<Page<Task>>(`/api/tasks?status=${status}&limit=${PAGE}${pageParam ? `&before=${pageParam}` : ""}`),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next,
    enabled,
  });
}

export function useTaskDetail(id: string | null) {
  return useQuery({
    queryKey: queryKeys.taskDetail(id),
    queryFn: () => apiGet<TaskDetail>(`/api/tasks/${id}`),
    enabled: id !== null,
  });
}

/** A POST to one of the board's endpoints; the board refreshes at once (the stream confirms it). */
export function useTaskAction<Input>(path: (input: Input) => string, body: (input: Input) => unknown = (input) => input, method: "POST" | "PATCH" = "POST") {
  const queryClient = useQueryClient();
  return useMutation<Task, ApiError, Input>({
    mutationFn: (input) => (method === "PATCH" ? apiPatch<Task>(path(input), body(input)) : apiPost<Task>(path(input), body(input))),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tasks() }),
  });
}
