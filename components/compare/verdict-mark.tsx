import type { Verdict } from "@/lib/client/spec-comparison";
import { cx } from "@/components/ui/class-names";

const VERDICTS: Record<Verdict, { text: string; symbol: string; className: string }> = {
  pass: {
    text: "matches the specification",
    symbol: "✓",
    className: "bg-emerald-100 text-emerald-800 dark:bg-emerald-400/15 dark:text-emerald-300",
  },
  inferred: {
    text: "consistent with the specification (inferred)",
    symbol: "≈",
    className: "bg-sky-100 text-sky-800 dark:bg-sky-400/15 dark:text-sky-300",
  },
  fail: {
    text: "differs from the specification",
    symbol: "✕",
    className: "bg-red-100 text-red-800 dark:bg-red-400/15 dark:text-red-300",
  },
  unknown: {
    text: "not observed",
    symbol: "–",
    className: "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300",
  },
};

/** A round mark with its meaning for screen readers (and as a tooltip). */
export function VerdictMark({ verdict, className }: { verdict: Verdict; className?: string }) {
  const { text, symbol, className: tone } = VERDICTS[verdict];
  return (
    <span
      title={text}
      className={cx(
        "inline-flex size-5 shrink-0 items-center justify-center rounded-full text-xs leading-none font-bold",
        tone,
        className,
      )}
    >
      <span aria-hidden="true">{symbol}</span>
      <span className="sr-only">{text}</span>
    </span>
  );
}
