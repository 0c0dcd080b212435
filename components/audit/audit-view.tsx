"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import useSWRInfinite from "swr/infinite";
import { auditExportUrl, auditPageKey, type AuditFilters } from "@/lib/client/api-keys";
import { getJson } from "@/lib/client/fetcher";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/skeleton";
import { AuditFilterForm } from "./audit-filters";
import { AuditRows } from "./audit-rows";
import type { AuditPageView } from "./audit-types";
import { ChainCheck } from "./chain-check";

const PAGE_SIZE = 50;

function describeFilters(filters: AuditFilters): string {
  const parts: string[] = [];
  if (filters.user) parts.push(`user ${filters.user}`);
  if (filters.event) parts.push(`event ${filters.event}`);
  if (filters.card) {
    parts.push(
      filters.card.length === 4
        ? `card ending ${filters.card}`
        : `card ending ${filters.card.slice(-4)} (by hash)`,
    );
  }
  if (filters.from) parts.push(`from ${new Date(filters.from).toLocaleString()}`);
  if (filters.to) parts.push(`to ${new Date(filters.to).toLocaleString()}`);
  return parts.length ? parts.join(", ") : "no filter";
}

const URL_FILTERS = ["user", "event", "card", "from", "to"] as const;

/** The filters a shared address carries; a full card number never rides in it (last 4 only). */
function filtersFromUrl(params: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  for (const name of URL_FILTERS) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  if (filters.card && !/^\d{4}$/.test(filters.card)) delete filters.card;
  return filters;
}

function urlOf(pathname: string, filters: AuditFilters): string {
  const params = new URLSearchParams();
  for (const name of URL_FILTERS) {
    const value = filters[name];
    if (value && (name !== "card" || value.length === 4)) params.set(name, value);
  }
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/**
 * The audit log for admins: filters, newest first, as many rows as wanted (a keyset cursor, "Load more"), a CSV
 * of the filtered rows and a check of the hash chain. Every read, export and check is itself logged.
 */
export function AuditView() {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [filters, setFilters] = useState<AuditFilters>(() =>
    filtersFromUrl(new URLSearchParams(searchParams)),
  );
  const { data, error, size, setSize, isLoading, isValidating } = useSWRInfinite<AuditPageView>(
    (index, previous: AuditPageView | null) =>
      index > 0 && !previous?.next_cursor ? null : auditPageKey(filters, previous?.next_cursor, PAGE_SIZE),
    getJson,
    { revalidateFirstPage: false, revalidateOnFocus: false },
  );
  const rows = data?.flatMap((page) => page.rows) ?? [];
  const more = Boolean(data?.[data.length - 1]?.next_cursor);
  const loadingMore = isValidating && data !== undefined && size > data.length;

  function search(next: AuditFilters) {
    setFilters(next);
    void setSize(1);
    // Kept in the address so a view can be shared (a full card number is not).
    router.replace(urlOf(pathname, next), { scroll: false });
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title="Audit log"
        description="Who did what, where and with which outcome: sign-ins, refusals, every call that touched a card or a credential, and every read of this log. Rows are append-only and hash-chained."
      />
      {/* Where the window is wider than the console's column, the log takes the room beside it: event names and
          Request Ids fit whole instead of breaking. 2rem is kept each side, more than any scrollbar's width. */}
      <div className="space-y-6 min-[1400px]:mx-[max(calc(50%-50vw+2rem),calc(50%-48rem))]">
        <Panel title="Filters" titleId="audit-filters-title" bodyClassName="p-5">
          <AuditFilterForm initial={filters} onSearch={search} />
          <p className="mt-3 text-xs text-muted">
            Cards are kept as first 6 + last 4 (last 4 for support) and a keyed hash, never in full. Searching
            by a full card number sends it once to the server, which hashes it and compares hashes.
          </p>
        </Panel>
        <Panel
          title="Entries"
          titleId="audit-entries-title"
          description={
            <span data-testid="audit-filter-summary">Showing {describeFilters(filters)}, newest first.</span>
          }
          bodyClassName="space-y-3 px-5 py-3"
        >
          <ChainCheck>
            <a href={auditExportUrl(filters)} download className={buttonClasses("secondary", "md")}>
              Export CSV
            </a>
          </ChainCheck>
          {error ? (
            <Alert tone="danger" title="The audit log could not be read" role="alert">
              <p>{error instanceof Error ? error.message : "Unknown error"}</p>
            </Alert>
          ) : isLoading ? (
            <Skeleton className="h-40 w-full" />
          ) : rows.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted">No entries match.</p>
          ) : (
            <>
              <AuditRows rows={rows} />
              <div className="flex flex-wrap items-center justify-between gap-3 border-t border-default pt-3 text-sm">
                <span className="text-muted" aria-live="polite">
                  {rows.length} {rows.length === 1 ? "entry" : "entries"} shown
                  {more ? "; older ones remain" : ""}
                </span>
                {more ? (
                  <Button busy={loadingMore} onClick={() => void setSize(size + 1)}>
                    Load more
                  </Button>
                ) : null}
              </div>
            </>
          )}
        </Panel>
      </div>
    </div>
  );
}
