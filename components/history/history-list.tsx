"use client";

import Link from "next/link";
import type { HistoryRun } from "@/lib/client/history-store";
import { Button } from "@/components/ui/button";
import { HistoryReadError } from "./history-read-error";
import { HistoryTable, HistoryTableSkeleton, type RowActions } from "./history-table";

const emptyLink = "font-medium text-accent underline";

/**
 * The runs as the filters leave them, a page at a time: or what stands in their place (reading, unreadable,
 * no runs yet, none matching).
 */
export function HistoryList({
  runs,
  error,
  filtered,
  limit,
  pageSize,
  selected,
  labelledBy,
  actions,
  onShowMore,
  onResetFilters,
}: {
  runs: readonly HistoryRun[] | undefined;
  error: Error | undefined;
  filtered: readonly HistoryRun[];
  limit: number;
  pageSize: number;
  selected: readonly string[];
  labelledBy: string;
  actions: RowActions;
  onShowMore: (limit: number) => void;
  onResetFilters: () => void;
}) {
  if (error) {
    return (
      <div className="p-5">
        <HistoryReadError error={error} />
      </div>
    );
  }
  if (!runs) return <HistoryTableSkeleton />;
  if (runs.length === 0) {
    return (
      <div className="px-6 py-14 text-center">
        <p className="text-base font-semibold text-fg">No runs yet</p>
        <p className="mx-auto mt-1 max-w-md text-sm text-muted">
          Token requests and inquiries are kept here as you run them, on the{" "}
          <Link href="/token" className={emptyLink}>
            token
          </Link>
          ,{" "}
          <Link href="/inquiry" className={emptyLink}>
            inquiry
          </Link>{" "}
          and{" "}
          <Link href="/compare" className={emptyLink}>
            compare
          </Link>{" "}
          pages. You can also import a history file.
        </p>
      </div>
    );
  }
  if (filtered.length === 0) {
    return (
      <div className="px-6 py-14 text-center">
        <p className="text-base font-semibold text-fg">No run matches these filters</p>
        <p className="mt-1 text-sm text-muted">
          {runs.length} run{runs.length === 1 ? " is" : "s are"} hidden.
        </p>
        <Button className="mt-4" onClick={onResetFilters}>
          Reset filters
        </Button>
      </div>
    );
  }
  const visible = filtered.slice(0, limit);
  return (
    <>
      <HistoryTable runs={visible} selected={selected} labelledBy={labelledBy} actions={actions} />
      {filtered.length > visible.length ? (
        <div className="border-t border-default px-5 py-3 text-center">
          <div className="flex flex-wrap items-center justify-center gap-2">
            <Button size="sm" onClick={() => onShowMore(limit + pageSize)}>
              Show {Math.min(pageSize, filtered.length - visible.length)} more
            </Button>
            <Button size="sm" variant="ghost" onClick={() => onShowMore(filtered.length)}>
              Show all {filtered.length}
            </Button>
          </div>
        </div>
      ) : null}
    </>
  );
}
