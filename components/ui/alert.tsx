import type { ReactNode } from "react";
import { cx } from "./class-names";

export type AlertTone = "info" | "warning" | "danger" | "success";

const TONES: Record<AlertTone, string> = {
  info: "border-info bg-info text-info-strong",
  warning: "border-warning bg-warning text-warning-strong",
  danger: "border-danger bg-danger text-danger-strong",
  success: "border-success bg-success text-success-strong",
};

export function Alert({
  tone = "info",
  title,
  children,
  action,
  actionBelow = false,
  className,
  role,
}: {
  tone?: AlertTone;
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  /** The action under the text rather than beside it: for an explanation too long for a column. */
  actionBelow?: boolean;
  className?: string;
  role?: "alert" | "status";
}) {
  const actions = action ? <div className="flex max-w-full min-w-0 flex-wrap gap-2">{action}</div> : null;
  return (
    <div role={role} className={cx("rounded-lg border px-4 py-3 text-sm", TONES[tone], className)}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        {/* At least 16rem for the text: on a phone the action wraps under it rather than squeezing it. */}
        <div className="min-w-0 flex-1 basis-64">
          <p className="font-semibold">{title}</p>
          {children ? <div className="mt-1 space-y-1 opacity-95">{children}</div> : null}
          {actionBelow && actions ? <div className="mt-3">{actions}</div> : null}
        </div>
        {actionBelow ? null : actions}
      </div>
    </div>
  );
}
