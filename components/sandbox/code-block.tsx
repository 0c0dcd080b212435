import { CopyButton } from "@/components/exchange/copy-button";

/** A shell snippet with a title and a copy button. */
export function CodeBlock({ title, code, copyLabel }: { title: string; code: string; copyLabel: string }) {
  return (
    <figure className="overflow-hidden rounded-lg border border-raised">
      <figcaption className="flex items-center justify-between gap-3 border-b border-raised bg-raised/60 px-3 py-1.5 text-xs font-medium text-body">
        <span>{title}</span>
        <CopyButton text={code} label={copyLabel} />
      </figcaption>
      {/* Focusable, so that keyboard users can scroll long lines. */}
      <pre
        tabIndex={0}
        className="overflow-x-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-400 bg-slate-950 px-4 py-3 font-mono text-[13px] leading-relaxed text-slate-100"
      >
        <code>{code}</code>
      </pre>
    </figure>
  );
}
