import { cx } from "./class-names";

/** A placeholder block with the size of what is loading, so that nothing jumps when it arrives. */
export function Skeleton({ className }: { className?: string }) {
  return <span aria-hidden="true" className={cx("block animate-pulse rounded-md bg-track", className)} />;
}
