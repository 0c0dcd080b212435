import type { ReactNode } from "react";
import { cx } from "./class-names";

export type AlertTone = "info" | "warning" | "danger" | "success";

const TONES: Record<AlertTone, string> = {
  info: "border-sky-200 bg-sky-50 text-sky-900 dark:border-sky-400/30 dark:bg-sky-400/10 dark:text-sky-100",
  warning:
    "border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-100",
  danger: "border-red-200 bg-red-50 text-red-900 dark:border-red-400/30 dark:bg-red-400/10 dark:text-red-100",
  success:
    "border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-400/30 dark:bg-emerald-400/10 dark:text-emerald-100",
};

export function Alert({
  tone = "info",
  title,
  children,
  action,
  className,
  role,
}: {
  tone?: AlertTone;
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
  role?: "alert" | "status";
}) {
  return (
    <div role={role} className={cx("rounded-lg border px-4 py-3 text-sm", TONES[tone], className)}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <p className="font-semibold">{title}</p>
          {children ? <div className="mt-1 space-y-1 opacity-95">{children}</div> : null}
        </div>
        {action ? <div className="flex max-w-full min-w-0 flex-wrap gap-2">{action}</div> : null}
      </div>
    </div>
  );
}
