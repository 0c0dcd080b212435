import type { HTMLAttributes, ReactNode } from "react";
import { cx } from "./class-names";

type PanelProps = Omit<HTMLAttributes<HTMLElement>, "title" | "className" | "children"> & {
  title?: ReactNode;
  titleId?: string;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
  /** Replaces the body's default padding (`px-5 py-4`), e.g. `px-0 py-0` for a table that runs edge to edge. */
  bodyClassName?: string;
  /** Children sit on the surface itself, with no body: for a panel that lays out its own header and regions. */
  flush?: boolean;
  children?: ReactNode;
  as?: "section" | "div" | "li";
};

/** The console's card: a bordered surface with an optional header (title, description, actions). */
export function Panel({
  title,
  titleId,
  description,
  actions,
  className,
  bodyClassName,
  flush = false,
  children,
  as: Tag = "section",
  ...attributes
}: PanelProps) {
  return (
    <Tag
      aria-labelledby={Tag === "section" && titleId ? titleId : undefined}
      {...attributes}
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
      {flush ? children : <div className={bodyClassName ?? "px-5 py-4"}>{children}</div>}
    </Tag>
  );
}
