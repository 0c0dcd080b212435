import { Fragment } from "react";

/** Renders text in which `backticked` spans are code, as the sandbox's documentation data writes them. */
export function InlineCode({ text }: { text: string }) {
  return (
    <>
      {text.split("`").map((part, index) =>
        index % 2 === 1 ? (
          <code
            key={index}
            className="rounded bg-raised px-1 py-0.5 font-mono text-[0.85em] [overflow-wrap:anywhere] text-fg"
          >
            {part}
          </code>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}
