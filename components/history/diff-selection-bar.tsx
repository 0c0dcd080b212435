import Link from "next/link";
import { diffRunsHref } from "@/lib/client/compare-links";
import { buttonClasses } from "@/components/ui/button";

/** How many runs are ticked for a diff, and the link to diff them once there are two. */
export function DiffSelectionBar({ selected }: { selected: readonly string[] }) {
  return (
    <div className="mt-3 flex min-h-8 flex-wrap items-center gap-3 text-xs text-muted">
      <span>
        {selected.length === 0
          ? "Tick two runs to diff them."
          : selected.length === 1
            ? "One run ticked: tick another to diff them."
            : "Two runs ticked."}
      </span>
      {selected.length === 2 ? (
        <Link href={diffRunsHref(selected[0]!, selected[1]!)} className={buttonClasses("primary", "sm")}>
          Diff the two ticked runs
        </Link>
      ) : null}
    </div>
  );
}
