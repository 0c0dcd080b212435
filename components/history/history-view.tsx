"use client";

import { useId, useMemo, useState } from "react";
import {
  EMPTY_FILTERS,
  filterRuns,
  hasActiveFilters,
  statusesIn,
  type HistoryFilters,
} from "@/lib/client/history-filter";
import { historyStore, type HistoryRun } from "@/lib/client/history-store";
import { onDemand } from "@/lib/client/on-demand";
import { useHistoryRuns } from "@/lib/client/use-history";
import { PageHeader } from "@/components/ui/page-header";
import { useMe } from "@/components/team/use-me";
import { ClearHistory } from "./clear-history";
import { DiffSelectionBar } from "./diff-selection-bar";
import { HistoryFileActions } from "./history-file-actions";
import { HistoryFiltersBar } from "./history-filters-bar";
import { HistoryList } from "./history-list";
import { HistoryNoticeToast, runCount, type HistoryNotice } from "./history-notice";
import { HistoryToolExports } from "./history-tool-exports";
import { TeamRuns } from "./team-runs";
import { useHistoryUrl } from "./use-history-url";
import { useRunDialog } from "./use-run-dialog";
import { useRunSelection } from "./use-run-selection";
import { Panel } from "@/components/ui/panel";

const PAGE_SIZE = 100;

// The run dialog (a run's exchange, code export, replay) is in no first load: it is fetched when the page is
// idle, and the whole dialog, title and content together, appears once it is there.
const runDialogModule = onDemand(() => import("./run-dialog"));

/** The history page: its parts (filters, file actions, clear, the list, the run dialog) wired together. */
export function HistoryView() {
  const tableId = useId();
  const { data: runs, error } = useHistoryRuns();
  const url = useHistoryUrl();
  const { filters } = url;
  const selection = useRunSelection(runs);
  const dialog = useRunDialog({ runs, urlRunId: url.openRunId, setUrlRunId: url.setOpenRunId });
  const [limit, setLimit] = useState(PAGE_SIZE);
  const [notice, setNotice] = useState<HistoryNotice>(null);
  const runDialog = runDialogModule.useModule();
  // A team console also keeps runs on the server, for the team to search and share.
  const { data: me } = useMe();
  const teamConsole = Boolean(me?.user && me.user.signed_in_with !== "none");

  const filtered = useMemo(() => (runs ? filterRuns(runs, filters) : []), [runs, filters]);
  const statuses = useMemo(() => (runs ? statusesIn(runs) : []), [runs]);
  const filterActive = hasActiveFilters(filters);
  const shownCount = Math.min(limit, filtered.length);

  function setFilters(next: HistoryFilters) {
    setLimit(PAGE_SIZE);
    url.setFilters(next);
  }

  async function deleteRun(run: HistoryRun) {
    try {
      await historyStore().deleteRun(run.id);
    } catch (deleteError) {
      setNotice({
        tone: "danger",
        text: `The run could not be deleted: ${(deleteError as Error).message}. It is still in the history.`,
      });
      return;
    }
    selection.forget(run.id);
  }

  return (
    <>
      <PageHeader
        title="History"
        description="Every run, kept in this browser (IndexedDB) until you delete it, with card numbers masked. Tokens and secrets are never stored."
        action={
          <>
            <HistoryFileActions
              runs={runs}
              filtered={filtered}
              filterActive={filterActive}
              onNotice={setNotice}
            />
            <HistoryToolExports
              shown={filterActive ? filtered : (runs ?? [])}
              runs={runs}
              selected={selection.selectedRuns}
              onNotice={setNotice}
            />
            <ClearHistory count={runs?.length ?? 0} onCleared={selection.clear} onNotice={setNotice} />
          </>
        }
      />

      <HistoryNoticeToast notice={notice} onDismiss={() => setNotice(null)} />

      <Panel aria-labelledby={tableId} flush>
        <div className="border-b border-default px-5 py-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id={tableId} className="text-sm font-semibold text-fg">
              Runs
            </h2>
            <p className="text-xs text-muted" data-testid="history-count">
              {runs
                ? filterActive
                  ? `${filtered.length} of ${runCount(runs.length)} match · showing ${shownCount}`
                  : `${runCount(runs.length)} kept · showing ${shownCount}`
                : "\u00a0"}
            </p>
          </div>
          <HistoryFiltersBar filters={filters} statuses={statuses} onChange={setFilters} />
          <DiffSelectionBar selected={selection.selectedRuns} />
        </div>

        <HistoryList
          runs={runs}
          error={error}
          filtered={filtered}
          limit={limit}
          pageSize={PAGE_SIZE}
          selected={selection.selectedRuns}
          labelledBy={tableId}
          actions={{
            onOpen: (run) => dialog.openRun(run.id),
            onReplay: (run, reuseRequestId) => dialog.replayRun(run.id, reuseRequestId),
            onDelete: (run) => void deleteRun(run),
            onToggleSelected: selection.toggle,
          }}
          onShowMore={setLimit}
          onResetFilters={() => setFilters(EMPTY_FILTERS)}
        />
      </Panel>

      {teamConsole ? <TeamRuns /> : null}

      {runDialog ? (
        <runDialog.RunDialog
          shown={dialog.shown}
          run={dialog.shownRun}
          runs={runs}
          onClose={dialog.close}
          onOpenRun={dialog.openRun}
          onReplay={dialog.replayRun}
        />
      ) : null}
    </>
  );
}
