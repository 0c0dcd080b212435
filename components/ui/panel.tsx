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
      className={cx("rounded-xl border border-default bg-panel shadow-sm", className)}
    >
      {title || actions ? (
        <div className="flex flex-wrap items-start justify-between gap-3 border-b border-default px-5 py-3.5">
          <div className="min-w-0">
            {title ? (
              <h2 id={titleId} className="text-sm font-semibold text-fg">
                {title}
              </h2>
            ) : null}
            {description ? <p className="mt-0.5 text-sm text-muted">{description}</p> : null}
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
