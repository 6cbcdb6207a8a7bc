"use client";
// A scrolling region joins the tab order only while it has something to scroll: then a keyboard can focus
// it and scroll with the arrows (WCAG 2.1.1); a region that fits adds no empty stop.
import { useEffect, useState, type RefObject } from "react";

export function useScrollRegion(ref: RefObject<HTMLElement | null>): 0 | undefined {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setScrolls(el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth);
    check();
    const resized = new ResizeObserver(check);
    resized.observe(el);
    const changed = new MutationObserver(check);
    changed.observe(el, { childList: true, subtree: true });
    return () => {
      resized.disconnect();
      changed.disconnect();
    };
  }, [ref]);
  return scrolls ? 0 : undefined;
}
