"use client";

import { useState } from "react";
import { cx } from "@/components/ui/class-names";
import { CopyButton } from "./copy-button";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isContainer(value: unknown): value is Json[] | Record<string, Json> {
  return typeof value === "object" && value !== null;
}

function Primitive({ value }: { value: unknown }) {
  if (typeof value === "string") {
    return <span className="break-all text-syntax-string">{JSON.stringify(value)}</span>;
  }
  if (typeof value === "number") return <span className="text-syntax-number">{String(value)}</span>;
  if (typeof value === "boolean" || value === null) {
    return <span className="text-syntax-literal">{String(value)}</span>;
  }
  // undefined and anything not JSON (never expected in a parsed body)
  return <span className="text-muted italic">{String(value)}</span>;
}

function Key({ name }: { name: string }) {
  return <span className="text-fg">{JSON.stringify(name)}: </span>;
}

function Chevron({ open }: { open: boolean }) {
  return (
    <svg
      viewBox="0 0 20 20"
      fill="currentColor"
      aria-hidden="true"
      className={cx("size-3.5 shrink-0 transition-transform", open && "rotate-90")}
    >
      <path
        fillRule="evenodd"
        d="M8.22 5.22a.75.75 0 0 1 1.06 0l4.25 4.25a.75.75 0 0 1 0 1.06l-4.25 4.25a.75.75 0 0 1-1.06-1.06L11.94 10 8.22 6.28a.75.75 0 0 1 0-1.06Z"
        clipRule="evenodd"
      />
    </svg>
  );
}

function JsonNode({
  name,
  value,
  depth,
  expandDepth,
  last,
}: {
  /** An object's key; none for an array's items, which JSON shows without their index. */
  name?: string;
  value: unknown;
  depth: number;
  expandDepth: number;
  last: boolean;
}) {
  const container = isContainer(value);
  const entries: Array<[string | number, unknown]> = container
    ? Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value)
    : [];
  const [open, setOpen] = useState(depth < expandDepth && entries.length <= 50);
  const comma = last ? "" : ",";

  if (!container) {
    return (
      <div className="pl-4">
        {name !== undefined ? <Key name={name} /> : null}
        <Primitive value={value} />
        {comma}
      </div>
    );
  }

  const [opening, closing] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) {
    return (
      <div className="pl-4">
        {name !== undefined ? <Key name={name} /> : null}
        {opening}
        {closing}
        {comma}
      </div>
    );
  }
  const count = `${entries.length} ${Array.isArray(value) ? (entries.length === 1 ? "item" : "items") : entries.length === 1 ? "key" : "keys"}`;
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex items-center rounded-sm text-left hover:bg-raised focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        <Chevron open={open} />
        <span className="pl-0.5">
          {name !== undefined ? <Key name={name} /> : null}
          {opening}
          {open ? null : (
            <>
              <span className="px-1 text-subtle">{count}</span>
              {closing}
              {comma}
            </>
          )}
        </span>
      </button>
      {open ? (
        <>
          <div className="ml-1.5 border-l border-raised pl-2">
            {entries.map(([key, child], index) => (
              <JsonNode
                key={key}
                name={Array.isArray(value) ? undefined : String(key)}
                value={child}
                depth={depth + 1}
                expandDepth={expandDepth}
                last={index === entries.length - 1}
              />
            ))}
          </div>
          <div className="pl-4">
            {closing}
            {comma}
          </div>
        </>
      ) : null}
    </div>
  );
}

/**
 * A collapsible, syntax-coloured view of a JSON value with "expand all", "collapse" and "copy".
 * Text that is not JSON is shown as it is.
 */
export function JsonViewer({
  value,
  label,
  isText = false,
  expandDepth = 3,
  className,
}: {
  value: unknown;
  /** Accessible name of the region, e.g. "Response body". */
  label: string;
  isText?: boolean;
  expandDepth?: number;
  className?: string;
}) {
  // Remounting the tree with another depth is the simplest correct "expand/collapse all".
  const [mode, setMode] = useState<{ depth: number; version: number }>({ depth: expandDepth, version: 0 });
  const text = isText || typeof value === "string" ? String(value) : JSON.stringify(value, null, 2);
  const container = !isText && isContainer(value);

  return (
    <div
      role="group"
      aria-label={label}
      className={cx("relative rounded-lg border border-default bg-inset", className)}
    >
      <div className="flex items-center justify-end gap-1 border-b border-default px-2 py-1">
        <span className="mr-auto pl-1 text-xs text-muted">{isText ? "Text (not JSON)" : "JSON"}</span>
        {container ? (
          <>
            <button
              type="button"
              className="rounded px-1.5 py-0.5 text-xs text-body hover:bg-raised focus-visible:outline-2 focus-visible:outline-indigo-500"
              onClick={() => setMode({ depth: Number.POSITIVE_INFINITY, version: mode.version + 1 })}
            >
              Expand all
            </button>
            <button
              type="button"
              className="rounded px-1.5 py-0.5 text-xs text-body hover:bg-raised focus-visible:outline-2 focus-visible:outline-indigo-500"
              onClick={() => setMode({ depth: 1, version: mode.version + 1 })}
            >
              Collapse
            </button>
          </>
        ) : null}
        <CopyButton text={text} label={`Copy ${label.toLowerCase()}`} iconOnly />
      </div>
      <div
        // Without buttons inside, the scroller itself must take focus so keyboard users can scroll it.
        tabIndex={container ? undefined : 0}
        className="max-h-[28rem] overflow-auto px-2 py-2 font-mono text-xs leading-5 text-fg focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        {container ? (
          <div key={mode.version} className="-ml-2">
            <JsonNode value={value} depth={0} expandDepth={mode.depth} last />
          </div>
        ) : isText || typeof value === "string" ? (
          <pre className="break-all whitespace-pre-wrap">{text === "" ? "(empty body)" : text}</pre>
        ) : (
          <Primitive value={value} />
        )}
      </div>
    </div>
  );
}
