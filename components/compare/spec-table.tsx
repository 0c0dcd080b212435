import type { SpecCell, SpecComparison } from "@/lib/client/spec-comparison";
import { Skeleton } from "@/components/ui/skeleton";
import { VerdictMark } from "./verdict-mark";

/** Below md the table stacks: each cell is a block that names its column (data-label). */
const STACKED_CELL =
  "max-md:block max-md:before:mb-0.5 max-md:before:block max-md:before:text-xs max-md:before:font-semibold max-md:before:tracking-wide max-md:before:text-muted max-md:before:uppercase max-md:before:content-[attr(data-label)]";

function LiveCell({ cell, busy, label }: { cell: SpecCell; busy: boolean; label: string }) {
  if (busy) {
    return (
      <td data-label={label} className={`px-3 py-2.5 align-top ${STACKED_CELL}`}>
        <Skeleton className="h-5 w-32" />
      </td>
    );
  }
  return (
    <td data-label={label} className={`px-3 py-2.5 align-top ${STACKED_CELL}`}>
      <div className="flex items-start gap-2">
        <VerdictMark verdict={cell.verdict} className="mt-0.5" />
        <div className="min-w-0">
          <span
            className={
              cell.verdict === "unknown" && cell.live === "not run"
                ? "text-muted"
                : "font-medium break-words text-fg"
            }
          >
            {cell.live}
          </span>
          {cell.note ? <p className="mt-0.5 text-xs text-muted">{cell.note}</p> : null}
        </div>
      </div>
    </td>
  );
}

/**
 * The API specification §4.5 table with, next to each promise, what the runs returned. The "Specification"
 * columns are the spec's own words; the "This run" columns are live.
 */
export function SpecTable({
  comparison,
  busy,
  captionId,
}: {
  comparison: SpecComparison;
  busy: boolean;
  captionId?: string;
}) {
  const head =
    // Upper case from lg only: at 768 px "SPECIFICATION" is wider than its column.
    "px-3 py-2 text-left text-xs font-semibold text-muted lg:tracking-wide lg:uppercase";
  return (
    // Fits from 390 px up: five columns from md, one stacked card per behaviour below.
    <div role="region" aria-label="Specification comparison table">
      <table
        className="w-full border-collapse text-sm max-md:block md:table-fixed"
        aria-labelledby={captionId}
      >
        <colgroup>
          <col className="w-[18%]" />
          <col className="w-[15%]" />
          <col className="w-[26%]" />
          <col className="w-[15%]" />
          <col className="w-[26%]" />
        </colgroup>
        <thead className="max-md:sr-only">
          <tr className="border-b border-default">
            <td className="px-3 pt-2" />
            <th
              scope="colgroup"
              colSpan={2}
              className="border-l border-default px-3 pt-2 text-left text-sm font-semibold text-fg"
            >
              Gift Balance Inquiry
            </th>
            <th
              scope="colgroup"
              colSpan={2}
              className="border-l border-default px-3 pt-2 text-left text-sm font-semibold text-fg"
            >
              Balance Inquiry
            </th>
          </tr>
          <tr className="border-b border-default">
            <th scope="col" className={head}>
              Behaviour
            </th>
            <th scope="col" className={`${head} border-l border-default`}>
              Specification
            </th>
            <th scope="col" className={head}>
              This run
            </th>
            <th scope="col" className={`${head} border-l border-default`}>
              Specification
            </th>
            <th scope="col" className={head}>
              This run
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-subtle [overflow-wrap:anywhere] max-md:block">
          {comparison.rows.map((row) => (
            <tr key={row.id} data-row={row.id} className="max-md:block max-md:py-2">
              <th
                scope="row"
                className="px-3 py-2.5 text-left align-top font-medium text-fg max-md:block max-md:pb-0"
              >
                {row.label}
              </th>
              <td
                data-label="Gift · specification"
                className={`border-l border-default px-3 py-2.5 align-top text-muted max-md:border-l-0 ${STACKED_CELL}`}
              >
                {row.gift.expected}
              </td>
              <LiveCell cell={row.gift} busy={busy} label="Gift · this run" />
              <td
                data-label="Balance · specification"
                className={`border-l border-default px-3 py-2.5 align-top text-muted max-md:border-l-0 ${STACKED_CELL}`}
              >
                {row.balance.expected}
              </td>
              <LiveCell cell={row.balance} busy={busy} label="Balance · this run" />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
