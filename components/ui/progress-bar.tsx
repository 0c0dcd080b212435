/** A determinate progress bar: `value` of `max`, announced by its label (and `valueText` when given). */
export function ProgressBar({
  label,
  value,
  max,
  valueText,
  tone = "accent",
  size = "md",
}: {
  label: string;
  value: number;
  max: number;
  valueText?: string;
  tone?: "accent" | "danger";
  size?: "sm" | "md";
}) {
  const percent = max === 0 ? 100 : Math.min(100, Math.floor((value / max) * 100));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      aria-valuetext={valueText}
      className={`${size === "sm" ? "h-2" : "h-3"} w-full overflow-hidden rounded-full bg-track`}
    >
      <div
        className={`h-full rounded-full transition-[width] ${tone === "danger" ? "bg-red-600" : "bg-indigo-600"}`}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
