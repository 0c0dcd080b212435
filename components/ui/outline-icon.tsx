import { cx } from "./class-names";

/** A 24×24 outline icon (one path), decorative: empty states and the like. */
export function OutlineIcon({ path, className }: { path: string; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      className={cx("size-10 text-slate-400", className)}
      aria-hidden="true"
    >
      <path strokeLinecap="round" strokeLinejoin="round" d={path} />
    </svg>
  );
}
