import type { ReactNode } from "react";
import { formatDeltaCents } from "@/lib/client/compare-money";
import type { FieldDiff, PurseDiffRow, RecordDiff } from "@/lib/client/record-diff";
import { Alert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { cx } from "@/components/ui/class-names";
import { Panel } from "@/components/ui/panel";

const cellHead = "px-3 py-2 text-left text-xs font-semibold tracking-wide text-muted uppercase";
const missing = <span className="text-muted">—</span>;

function Section({
  title,
  id,
  aside,
  children,
}: {
  title: string;
  id: string;
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Panel aria-labelledby={id} flush>
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-default px-5 py-3">
        <h2 id={id} className="text-sm font-semibold text-fg">
          {title}
        </h2>
        {aside}
      </div>
      <div
        className="relative overflow-x-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500"
        role="region"
        aria-label={`${title} table`}
        tabIndex={0}
      >
        {children}
      </div>
    </Panel>
  );
}

const PURSE_CHANGE: Record<PurseDiffRow["change"], { label: string; tone: BadgeTone }> = {
  same: { label: "same", tone: "neutral" },
  changed: { label: "changed", tone: "warning" },
  added: { label: "added", tone: "info" },
  removed: { label: "removed", tone: "danger" },
  not_reported: { label: "not reported", tone: "neutral" },
  unreadable: { label: "not an amount", tone: "danger" },
};

function Delta({ cents }: { cents: number | null }) {
  if (cents === null) return missing;
  return (
    <span
      className={cx(
        "font-mono tabular-nums",
        cents > 0 && "text-success",
        cents < 0 && "text-danger",
        cents === 0 && "text-muted",
      )}
    >
      {formatDeltaCents(cents)}
    </span>
  );
}

const FIELD_CHANGE: Record<FieldDiff["change"], { label: string; tone: BadgeTone }> = {
  same: { label: "same", tone: "neutral" },
  changed: { label: "changed", tone: "warning" },
  added: { label: "only in B", tone: "info" },
  removed: { label: "only in A", tone: "danger" },
};

function leafText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function Leaf({ value, present }: { value: unknown; present: boolean }) {
  if (!present) return missing;
  return <code className="font-mono text-xs break-all whitespace-pre-wrap text-fg">{leafText(value)}</code>;
}

/** The diff of two history entries: key facts, purses with deltas, then every differing field. */
export function RecordDiffView({ diff, idPrefix }: { diff: RecordDiff; idPrefix: string }) {
  return (
    <div className="space-y-4">
      {diff.warnings.length > 0 ? (
        <Alert tone="warning" title="Read with care">
          {diff.warnings.map((warning) => (
            <p key={warning}>{warning}</p>
          ))}
        </Alert>
      ) : null}

      <Section title="At a glance" id={`${idPrefix}-facts`}>
        <table className="w-full min-w-[36rem] text-sm">
          <thead className="border-b border-default">
            <tr>
              <th scope="col" className={cx(cellHead, "w-[28%]")}>
                Field
              </th>
              <th scope="col" className={cellHead}>
                A
              </th>
              <th scope="col" className={cellHead}>
                B
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-subtle">
            {diff.facts.map((row) => (
              <tr key={row.label} className={row.changed ? "bg-warning/60" : undefined}>
                <th scope="row" className="px-3 py-2 text-left font-medium text-fg">
                  {row.label}
                  {row.changed ? <span className="sr-only"> (differs)</span> : null}
                </th>
                <td className="px-3 py-2 font-mono text-xs text-fg">{row.before ?? missing}</td>
                <td className="px-3 py-2 font-mono text-xs text-fg">{row.after ?? missing}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      {diff.purses.length > 0 ? (
        <Section
          title="Purses"
          id={`${idPrefix}-purses`}
          aside={
            <span className="text-xs text-muted">
              A reports {coverageText(diff.purseCoverage.before)}; B reports{" "}
              {coverageText(diff.purseCoverage.after)}
            </span>
          }
        >
          <table className="w-full min-w-[36rem] text-sm" data-testid="purse-diff">
            <thead className="border-b border-default">
              <tr>
                <th scope="col" className={cellHead}>
                  Purse
                </th>
                <th scope="col" className={cx(cellHead, "text-right")}>
                  A
                </th>
                <th scope="col" className={cx(cellHead, "text-right")}>
                  B
                </th>
                <th scope="col" className={cx(cellHead, "text-right")}>
                  Change
                </th>
                <th scope="col" className={cellHead}>
                  <span className="sr-only">Status</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-subtle">
              {diff.purses.map((row) => (
                <tr key={row.purse} data-purse={row.purse}>
                  <th scope="row" className="px-3 py-2 text-left font-normal text-fg">
                    {row.label}
                    <code className="ml-2 font-mono text-xs text-muted">{row.purse}</code>
                  </th>
                  <td className="px-3 py-2 text-right font-mono tabular-nums text-fg">
                    {row.before ?? missing}
                  </td>
                  <td className="px-3 py-2 text-right font-mono tabular-nums text-fg">
                    {row.after ?? missing}
                  </td>
                  <td className="px-3 py-2 text-right">
                    <Delta cents={row.deltaCents} />
                  </td>
                  <td className="px-3 py-2">
                    <Badge tone={PURSE_CHANGE[row.change].tone}>{PURSE_CHANGE[row.change].label}</Badge>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Section>
      ) : null}

      <Section
        title="Fields"
        id={`${idPrefix}-fields`}
        aside={
          <span className="text-xs text-muted" data-testid="field-diff-summary">
            {diff.meaningfulChanges} meaningful difference{diff.meaningfulChanges === 1 ? "" : "s"}
            {diff.hiddenVolatileChanges > 0
              ? ` · ${diff.hiddenVolatileChanges} volatile difference${diff.hiddenVolatileChanges === 1 ? "" : "s"} hidden`
              : ""}
          </span>
        }
      >
        {diff.fields.length === 0 ? (
          <p className="px-5 py-4 text-sm text-muted">
            {diff.hiddenVolatileChanges > 0
              ? "No differences apart from volatile fields (identifiers, timestamps, durations, dates in headers)."
              : "No differences."}
          </p>
        ) : (
          <table className="w-full min-w-[44rem] table-fixed text-sm" data-testid="field-diff">
            <colgroup>
              <col className="w-[34%]" />
              <col className="w-[27%]" />
              <col className="w-[27%]" />
              <col className="w-[12%]" />
            </colgroup>
            <thead className="border-b border-default">
              <tr>
                <th scope="col" className={cellHead}>
                  Path
                </th>
                <th scope="col" className={cellHead}>
                  A
                </th>
                <th scope="col" className={cellHead}>
                  B
                </th>
                <th scope="col" className={cellHead}>
                  <span className="sr-only">Change</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-subtle">
              {diff.fields.map((field) => (
                <tr key={field.key} data-field={field.key}>
                  <th
                    scope="row"
                    className="px-3 py-2 text-left align-top font-mono text-xs font-normal break-all text-body"
                  >
                    {field.key}
                    {field.volatile ? (
                      <span className="ml-1.5 align-middle">
                        <Badge tone="neutral">volatile</Badge>
                      </span>
                    ) : null}
                  </th>
                  <td className="px-3 py-2 align-top">
                    <Leaf value={field.before} present={"before" in field} />
                  </td>
                  <td className="px-3 py-2 align-top">
                    <Leaf value={field.after} present={"after" in field} />
                  </td>
                  <td className="px-3 py-2 align-top">
                    <Badge tone={FIELD_CHANGE[field.change].tone}>{FIELD_CHANGE[field.change].label}</Badge>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </div>
  );
}

function coverageText(coverage: RecordDiff["purseCoverage"]["before"]): string {
  return coverage === "all" ? "every purse" : coverage === "gift" ? "the Gift purse only" : "no purse";
}
