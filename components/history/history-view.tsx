"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useId, useMemo, useRef, useState, type ChangeEvent } from "react";
import { ENVIRONMENT_NAMES, OPERATION_NAMES, environmentLabel } from "@/lib/client/environments";
import { operationLabel } from "@/lib/api/operations";
import {
  EMPTY_FILTERS,
  filterRuns,
  filtersFromSearch,
  filtersToSearch,
  hasActiveFilters,
  lastFourDigits,
  statusesIn,
  type HistoryFilters,
  type StatusFilter,
} from "@/lib/client/history-filter";
import { useHistoryRuns } from "@/lib/client/use-history";
import { HistoryImportError, historyStore, type HistoryRun } from "@/lib/client/history-store";
import { statusLine } from "@/lib/client/http-status";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { inputClasses } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { HistoryDialog } from "./history-dialog";
import { HistoryTable, HistoryTableSkeleton } from "./history-table";
import { ReplayForm } from "./replay-form";
import { RunDetail } from "./run-detail";

const PAGE_SIZE = 100;

type Dialog = { kind: "open"; id: string } | { kind: "replay"; id: string; reuseRequestId: boolean } | null;
type Notice = { tone: "success" | "danger"; text: string } | null;

/** Filters and the open run live in the URL, so a filtered view or a run can be linked to and survives reload. */
function replaceSearch(params: URLSearchParams) {
  const query = params.toString();
  window.history.replaceState(null, "", query ? `?${query}` : window.location.pathname);
}

function exportFileName(now = new Date()): string {
  return `card-services-history-${now.toISOString().slice(0, 19).replace(/[:T]/g, "-")}.json`;
}

function FilterSelect({
  id,
  label,
  value,
  onChange,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: React.ReactNode;
}) {
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={cx(inputClasses, "pr-8")}
      >
        {children}
      </select>
    </div>
  );
}

export function HistoryView() {
  const ids = {
    operation: useId(),
    environment: useId(),
    card: useId(),
    status: useId(),
    table: useId(),
    file: useId(),
  };
  const search = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(new URLSearchParams(search.toString())), [search]);
  const openRunId = search.get("run");
  const { data: runs, error, isLoading } = useHistoryRuns();

  const [dialog, setDialog] = useState<Dialog>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [limit, setLimit] = useState(PAGE_SIZE);
  const [confirmClear, setConfirmClear] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<"export" | "import" | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const filtered = useMemo(() => (runs ? filterRuns(runs, filters) : []), [runs, filters]);
  const statuses = useMemo(() => (runs ? statusesIn(runs) : []), [runs]);
  const visible = filtered.slice(0, limit);
  const selectedRuns = selected.filter((id) => runs?.some((run) => run.id === id));

  // The dialog shown: one opened from the table, or the run the URL names (?run=…, e.g. from Compare).
  const shown: Dialog = dialog ?? (openRunId ? { kind: "open", id: openRunId } : null);
  const shownRun = shown ? (runs?.find((run) => run.id === shown.id) ?? null) : null;

  function setFilters(next: HistoryFilters) {
    setLimit(PAGE_SIZE);
    replaceSearch(filtersToSearch(next, new URLSearchParams(window.location.search)));
  }

  function openRun(id: string) {
    setDialog({ kind: "open", id });
    const params = new URLSearchParams(window.location.search);
    params.set("run", id);
    replaceSearch(params);
  }

  function closeDialog() {
    setDialog(null);
    const params = new URLSearchParams(window.location.search);
    params.delete("run");
    replaceSearch(params);
  }

  function toggleSelected(run: HistoryRun) {
    setSelected((current) =>
      current.includes(run.id)
        ? current.filter((id) => id !== run.id)
        : // Two at most: a third choice replaces the oldest.
          [...current, run.id].slice(-2),
    );
  }

  async function exportHistory() {
    setBusy("export");
    // Export is what the page shows: the filtered runs when a filter is set, every run otherwise.
    const filteredView = hasActiveFilters(filters);
    const exported = filteredView ? filtered : (runs ?? []);
    try {
      const json = await historyStore().exportRuns(exported);
      const url = URL.createObjectURL(new Blob([json], { type: "application/json" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = exportFileName();
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setNotice({
        tone: "success",
        text: filteredView
          ? `Exported the ${exported.length} filtered run${exported.length === 1 ? "" : "s"} (of ${runs?.length ?? 0}) as ${link.download}.`
          : `Exported all ${exported.length} run${exported.length === 1 ? "" : "s"} as ${link.download}.`,
      });
    } catch (exportError) {
      setNotice({ tone: "danger", text: `Export failed: ${(exportError as Error).message}` });
    } finally {
      setBusy(null);
    }
  }

  async function importHistory(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ""; // the same file can be chosen again
    if (!file) return;
    setBusy("import");
    try {
      const { imported } = await historyStore().importRuns(await file.text());
      setNotice({
        tone: "success",
        text: `Imported ${imported} run${imported === 1 ? "" : "s"} from ${file.name}.`,
      });
    } catch (importError) {
      const message =
        importError instanceof HistoryImportError
          ? importError.message
          : `The file could not be imported: ${(importError as Error).message}`;
      setNotice({ tone: "danger", text: message });
    } finally {
      setBusy(null);
    }
  }

  async function clearHistory() {
    setConfirmClear(false);
    const count = runs?.length ?? 0;
    try {
      await historyStore().clearRuns();
    } catch (clearError) {
      setNotice({
        tone: "danger",
        text: `The history could not be cleared: ${(clearError as Error).message}. Nothing was deleted.`,
      });
      return;
    }
    setSelected([]);
    setNotice({ tone: "success", text: `Deleted ${count} run${count === 1 ? "" : "s"} from this browser.` });
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
    setSelected((current) => current.filter((id) => id !== run.id));
  }

  const hasRuns = Boolean(runs && runs.length > 0);
  return (
    <>
      <PageHeader
        title="History"
        description="Every run, kept in this browser (IndexedDB) until you delete it, with card numbers masked. Tokens and secrets are never stored."
        action={
          <>
            <input
              ref={fileInput}
              id={ids.file}
              type="file"
              accept="application/json,.json"
              hidden
              onChange={(event) => void importHistory(event)}
            />
            <Button onClick={() => fileInput.current?.click()} busy={busy === "import"}>
              Import JSON
            </Button>
            <Button
              onClick={() => void exportHistory()}
              busy={busy === "export"}
              disabled={!hasRuns || (hasActiveFilters(filters) && filtered.length === 0)}
            >
              {hasActiveFilters(filters) ? `Export ${filtered.length} filtered` : "Export JSON"}
            </Button>
            <Button variant="danger" onClick={() => setConfirmClear(true)} disabled={!hasRuns}>
              Clear…
            </Button>
          </>
        }
      />

      {/* A toast, not a banner: a notice appearing must not push the table down. */}
      <div aria-live="polite" className="fixed right-4 bottom-4 z-40 w-[min(28rem,calc(100vw-2rem))]">
        {notice ? (
          // Solid backing: the dark tones are translucent.
          <div className="rounded-lg bg-white shadow-lg dark:bg-slate-900">
            <Alert
              tone={notice.tone}
              title={notice.text}
              role={notice.tone === "danger" ? "alert" : "status"}
              action={
                <Button size="sm" variant="ghost" onClick={() => setNotice(null)}>
                  Dismiss
                </Button>
              }
            />
          </div>
        ) : null}
      </div>

      <section
        aria-labelledby={ids.table}
        className="rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="border-b border-slate-200 px-5 py-4 dark:border-slate-800">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id={ids.table} className="text-sm font-semibold text-slate-900 dark:text-slate-100">
              Runs
            </h2>
            <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="history-count">
              {runs
                ? hasActiveFilters(filters)
                  ? `${filtered.length} of ${runs.length} run${runs.length === 1 ? "" : "s"} match · showing ${Math.min(visible.length, filtered.length)}`
                  : `${runs.length} run${runs.length === 1 ? "" : "s"} kept · showing ${visible.length}`
                : "\u00a0"}
            </p>
          </div>
          <div className="mt-3 grid grid-cols-2 items-end gap-3 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto]">
            <FilterSelect
              id={ids.operation}
              label="Operation"
              value={filters.operation}
              onChange={(value) =>
                setFilters({ ...filters, operation: value as HistoryFilters["operation"] })
              }
            >
              <option value="">All operations</option>
              {OPERATION_NAMES.map((operation) => (
                <option key={operation} value={operation}>
                  {operationLabel(operation)}
                </option>
              ))}
            </FilterSelect>
            <FilterSelect
              id={ids.environment}
              label="Environment"
              value={filters.environment}
              onChange={(value) =>
                setFilters({ ...filters, environment: value as HistoryFilters["environment"] })
              }
            >
              <option value="">All environments</option>
              {ENVIRONMENT_NAMES.map((environment) => (
                <option key={environment} value={environment}>
                  {environmentLabel(environment)}
                </option>
              ))}
            </FilterSelect>
            <div className="min-w-0">
              <label
                htmlFor={ids.card}
                className="mb-1 block text-xs font-medium text-slate-700 dark:text-slate-300"
              >
                Card last 4
              </label>
              <input
                id={ids.card}
                value={filters.cardLast4}
                onChange={(event) =>
                  setFilters({ ...filters, cardLast4: lastFourDigits(event.target.value) })
                }
                inputMode="numeric"
                autoComplete="off"
                placeholder="e.g. 0001"
                className={cx(inputClasses, "font-mono")}
              />
            </div>
            <FilterSelect
              id={ids.status}
              label="Status"
              value={filters.status}
              onChange={(value) => setFilters({ ...filters, status: value as StatusFilter })}
            >
              <option value="">All statuses</option>
              <option value="2xx">2xx success</option>
              <option value="4xx">4xx client error</option>
              <option value="5xx">5xx server error</option>
              {statuses.map((status) => (
                <option key={status} value={String(status)}>
                  {statusLine(status)}
                </option>
              ))}
            </FilterSelect>
            <Button
              onClick={() => setFilters(EMPTY_FILTERS)}
              disabled={!hasActiveFilters(filters)}
              className="col-span-2 lg:col-span-1"
            >
              Reset filters
            </Button>
          </div>
          <div className="mt-3 flex min-h-8 flex-wrap items-center gap-3 text-xs text-slate-600 dark:text-slate-400">
            <span>
              {selectedRuns.length === 0
                ? "Tick two runs to diff them."
                : selectedRuns.length === 1
                  ? "One run ticked: tick another to diff them."
                  : "Two runs ticked."}
            </span>
            {selectedRuns.length === 2 ? (
              <Link
                href={`/compare?view=diff&a=${encodeURIComponent(selectedRuns[0]!)}&b=${encodeURIComponent(selectedRuns[1]!)}`}
                className={buttonClasses("primary", "sm")}
              >
                Diff the two ticked runs
              </Link>
            ) : null}
          </div>
        </div>

        {error ? (
          <div className="p-5">
            <Alert tone="danger" title="History could not be read" role="alert">
              <p>{error.message}</p>
              <p>This browser may block IndexedDB (private mode or a site data policy).</p>
            </Alert>
          </div>
        ) : isLoading || !runs ? (
          <HistoryTableSkeleton />
        ) : runs.length === 0 ? (
          <div className="px-6 py-14 text-center">
            <p className="text-base font-semibold text-slate-900 dark:text-slate-100">No runs yet</p>
            <p className="mx-auto mt-1 max-w-md text-sm text-slate-600 dark:text-slate-400">
              Token requests and inquiries are kept here as you run them, on the{" "}
              <Link href="/token" className="font-medium text-indigo-700 underline dark:text-indigo-300">
                token
              </Link>
              ,{" "}
              <Link href="/inquiry" className="font-medium text-indigo-700 underline dark:text-indigo-300">
                inquiry
              </Link>{" "}
              and{" "}
              <Link href="/compare" className="font-medium text-indigo-700 underline dark:text-indigo-300">
                compare
              </Link>{" "}
              pages. You can also import a history file.
            </p>
          </div>
        ) : filtered.length === 0 ? (
          <div className="px-6 py-14 text-center">
            <p className="text-base font-semibold text-slate-900 dark:text-slate-100">
              No run matches these filters
            </p>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              {runs.length} run{runs.length === 1 ? " is" : "s are"} hidden.
            </p>
            <Button className="mt-4" onClick={() => setFilters(EMPTY_FILTERS)}>
              Reset filters
            </Button>
          </div>
        ) : (
          <>
            <HistoryTable
              runs={visible}
              selected={selectedRuns}
              labelledBy={ids.table}
              actions={{
                onOpen: (run) => openRun(run.id),
                onReplay: (run, reuseRequestId) => setDialog({ kind: "replay", id: run.id, reuseRequestId }),
                onDelete: (run) => void deleteRun(run),
                onToggleSelected: toggleSelected,
              }}
            />
            {filtered.length > visible.length ? (
              <div className="border-t border-slate-200 px-5 py-3 text-center dark:border-slate-800">
                <div className="flex flex-wrap items-center justify-center gap-2">
                  <Button size="sm" onClick={() => setLimit((current) => current + PAGE_SIZE)}>
                    Show {Math.min(PAGE_SIZE, filtered.length - visible.length)} more
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => setLimit(filtered.length)}>
                    Show all {filtered.length}
                  </Button>
                </div>
              </div>
            ) : null}
          </>
        )}
      </section>

      <HistoryDialog
        open={shown !== null && (shownRun !== null || Boolean(runs))}
        title={
          shownRun
            ? `${shown?.kind === "replay" ? "Replay " : ""}${operationLabel(shownRun.exchange.operation)}${
                shown?.kind === "replay" && shown.reuseRequestId ? " with the same Request Id" : ""
              }`
            : "Run not found"
        }
        subtitle={
          shownRun
            ? `${statusLine(shownRun.exchange.response.status)} · ${environmentLabel(shownRun.exchange.environment)}${
                shownRun.card ? ` · ${shownRun.card.masked}` : ""
              }`
            : undefined
        }
        onClose={closeDialog}
        footer={
          shownRun && shown?.kind === "open" ? (
            <>
              <Link
                href={`/compare?view=diff&b=${encodeURIComponent(shownRun.id)}&a=${encodeURIComponent(
                  runs?.find(
                    (run) => run.id !== shownRun.id && run.exchange.operation === shownRun.exchange.operation,
                  )?.id ?? "",
                )}`}
                className={buttonClasses("secondary", "md")}
              >
                Diff with another run
              </Link>
              <Button onClick={() => setDialog({ kind: "replay", id: shownRun.id, reuseRequestId: false })}>
                Replay
              </Button>
              {shownRun.exchange.operation === "gift_balance_inquiry" && shownRun.exchange.request_id ? (
                <Button onClick={() => setDialog({ kind: "replay", id: shownRun.id, reuseRequestId: true })}>
                  Replay with the same Request Id
                </Button>
              ) : null}
            </>
          ) : undefined
        }
      >
        {shownRun ? (
          shown?.kind === "replay" ? (
            <ReplayForm
              key={`${shownRun.id}-${shown.reuseRequestId}`}
              run={shownRun}
              reuseRequestId={shown.reuseRequestId}
              onOpenRun={openRun}
            />
          ) : (
            <RunDetail run={shownRun} />
          )
        ) : (
          <p className="text-sm text-slate-700 dark:text-slate-300">
            This run is not in this browser&rsquo;s history: it may have been deleted, cleared, or kept in
            another browser.
          </p>
        )}
      </HistoryDialog>

      <ConfirmDialog
        open={confirmClear}
        title="Clear the history?"
        confirmLabel={`Delete ${runs?.length ?? 0} run${runs?.length === 1 ? "" : "s"}`}
        onConfirm={() => void clearHistory()}
        onCancel={() => setConfirmClear(false)}
      >
        <p>
          Every run kept in this browser is deleted. This cannot be undone: export the history first if you
          need it as evidence.
        </p>
      </ConfirmDialog>
    </>
  );
}
