import type { ReactNode } from "react";
import { cx } from "./class-names";

/** The console's card: a bordered surface with an optional header (title, description, actions). */
export function Panel({
  title,
  titleId,
  description,
  actions,
  className,
  bodyClassName,
  children,
  as: Tag = "section",
}: {
  title?: ReactNode;
  titleId?: string;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
  bodyClassName?: string;
  children?: ReactNode;
  as?: "section" | "div";
}) {
  return (
    <Tag
      aria-labelledby={Tag === "section" && titleId ? titleId : undefined}
      className={cx(
        "rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900",
        className,
      )}
    >
      {title || actions ? (
        <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 px-5 py-3.5 dark:border-slate-800">
          <div className="min-w-0">
            {title ? (
              <h2 id={titleId} className="text-sm font-semibold text-slate-900 dark:text-slate-100">
                {title}
              </h2>
            ) : null}
            {description ? (
              <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-400">{description}</p>
            ) : null}
          </div>
          {actions ? (
            <div className="flex max-w-full min-w-0 flex-wrap items-center gap-2">{actions}</div>
          ) : null}
        </div>
      ) : null}
      <div className={cx("px-5 py-4", bodyClassName)}>{children}</div>
    </Tag>
  );
}
