"use client";
// Focus for a field the user has just asked for (a dialog opened, an inline form shown), without `autoFocus`.
import { useEffect, useRef } from "react";

/** A ref whose element takes the focus each time `when` turns true, after the render that shows it. */
export function useFocusWhen<T extends HTMLElement>(when: boolean) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (when) ref.current?.focus();
  }, [when]);
  return ref;
}
