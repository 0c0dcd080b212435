import type { Verdict } from "@/lib/client/spec-comparison";
import { cx } from "@/components/ui/class-names";

const VERDICTS: Record<Verdict, { text: string; symbol: string; className: string }> = {
  pass: {
    text: "matches the specification",
    symbol: "✓",
    className: "bg-success-strong text-success",
  },
  inferred: {
    text: "consistent with the specification (inferred)",
    symbol: "≈",
    className: "bg-info-strong text-info",
  },
  fail: {
    text: "differs from the specification",
    symbol: "✕",
    className: "bg-danger-strong text-danger",
  },
  unknown: {
    text: "not observed",
    symbol: "–",
    className: "bg-raised text-muted",
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
