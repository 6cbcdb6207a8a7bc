"use client";
// A browser notification for each task that comes to wait for the signed-in human's review while the
// page is open (not for those already waiting at load). It rides on the escalations' opt-in: the same
// Notification permission, asked for by the same button.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { useMe } from "../session";
import type { Page } from "../types";
import type { Task } from "./types";

export function ReviewNotifier() {
  const me = useMe().data;
  const human = me?.kind === "human";
  const reviews = useQuery({ queryKey: queryKeys.reviewsWaiting(), queryFn: () => apiGet<Page<Task>>("/api/tasks?status=review&limit=500"), enabled: human });
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!reviews.data || !me) return;
    const mine = reviews.data.items.filter((t) => t.approverId === me.id);
    if (seen.current === null) {
      seen.current = new Set(mine.map((t) => t.id));
      return;
    }
    for (const task of mine) {
      if (seen.current.has(task.id)) continue;
      seen.current.add(task.id);
      if (typeof Notification !== "undefined" && Notification.permission === "granted") {
        const note = new Notification(`Review waiting: #${task.number} ${task.title}`, {
          body: task.ownerName ? `${task.ownerName} submitted it for your review.` : "Submitted for your review.",
          tag: `review-${task.id}`,
        });
        note.onclick = () => {
          window.focus();
          window.location.assign(`/board?task=${task.id}&review=1`);
        };
      }
    }
  }, [reviews.data, me]);
  return null;
}
