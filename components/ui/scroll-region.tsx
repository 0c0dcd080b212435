"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { cx } from "./class-names";

/**
 * A wide table's own sideways scroll, so the page itself never scrolls sideways. When its content is wider than
 * it, it says so in words and with a shadow on the side that hides more, and it takes keyboard focus (arrow keys
 * scroll it) as a named region.
 */
export function ScrollRegion({
  label,
  className,
  hintClassName,
  children,
}: {
  label: string;
  className?: string;
  /** The hint's own spacing, for a region that runs to its panel's edges. */
  hintClassName?: string;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const [hidden, setHidden] = useState({ left: false, right: false });
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      const rest = element.scrollWidth - element.clientWidth - element.scrollLeft;
      setHidden({ left: element.scrollLeft > 1, right: rest > 1 });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    element.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener("scroll", measure);
    };
  }, []);
  const scrolls = hidden.left || hidden.right;
  return (
    <div className={cx("relative min-w-0", className)}>
      {scrolls ? (
        <p id={hintId} className={cx("mb-1 flex items-center gap-1 text-xs text-muted", hintClassName)}>
          <span aria-hidden="true">↔</span> Scroll sideways for more
        </p>
      ) : null}
      <div
        ref={box}
        role="region"
        aria-label={label}
        tabIndex={scrolls ? 0 : undefined}
        aria-describedby={scrolls ? hintId : undefined}
        className="relative overflow-x-auto focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
      >
        {children}
      </div>
      {/* Shadows on the edges that hide more: what a touch screen shows instead of a scrollbar. (The scroller is
          positioned so that absolute descendants, e.g. sr-only text, scroll with it instead of widening the page.) */}
      <div
        aria-hidden="true"
        className={cx(
          "pointer-events-none absolute inset-y-0 left-0 w-4 bg-linear-to-r from-edge-shade to-transparent transition-opacity",
          hidden.left ? "opacity-100" : "opacity-0",
        )}
      />
      <div
        aria-hidden="true"
        className={cx(
          "pointer-events-none absolute inset-y-0 right-0 w-4 bg-linear-to-l from-edge-shade to-transparent transition-opacity",
          hidden.right ? "opacity-100" : "opacity-0",
        )}
      />
    </div>
  );
}
