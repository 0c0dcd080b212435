"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { filtersFromSearch, filtersToSearch, type HistoryFilters } from "@/lib/client/history-filter";

/** Replaces the query without a navigation (no server round trip, no history entry). */
function replaceSearch(params: URLSearchParams) {
  const query = params.toString();
  window.history.replaceState(null, "", query ? `?${query}` : window.location.pathname);
}

/**
 * The history page's state that lives in the URL, so that a filtered view or an open run can be linked to and
 * survives a reload: the filters, and the run shown (?run=…, e.g. from Compare).
 */
export function useHistoryUrl() {
  const search = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(new URLSearchParams(search.toString())), [search]);
  const openRunId = search.get("run");

  const setFilters = useCallback((next: HistoryFilters) => {
    replaceSearch(filtersToSearch(next, new URLSearchParams(window.location.search)));
  }, []);

  const setOpenRunId = useCallback((id: string | null) => {
    const params = new URLSearchParams(window.location.search);
    if (id === null) params.delete("run");
    else params.set("run", id);
    replaceSearch(params);
  }, []);

  return { filters, openRunId, setFilters, setOpenRunId };
}
