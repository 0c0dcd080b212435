"use client";

import { Fragment, useState } from "react";
import { cx } from "@/components/ui/class-names";
import { RULED_HEAD, TableHead } from "@/components/ui/table-head";
import { compareCaseIds, type CaseResult } from "@/lib/shared/certification-contract";
import type { RunView } from "@/lib/shared/certification-api";
import { CaseExchange } from "./case-exchange";
import { VerdictBadge } from "./verdict-badge";

const COLUMNS = [
  { key: "case", label: "Case" },
  { key: "title", label: "Title" },
  { key: "spec", label: "Spec", className: "hidden py-2 pr-3 font-medium sm:table-cell" },
  { key: "verdict", label: "Verdict", className: "py-2 font-medium" },
];

function CheckRows({
  runId,
  result,
  exchanges,
}: {
  runId: string;
  result: CaseResult;
  exchanges: RunView["exchanges"];
}) {
  const byId = new Map(exchanges.map((exchange) => [exchange.id, exchange]));
  return (
    <div className="grid gap-3 text-sm">
      {result.reason ? <p className="text-body">{result.reason}</p> : null}
      {result.checks.length > 0 ? (
        <div className="relative overflow-x-auto">
          <table className="w-full min-w-[36rem] text-left text-xs">
            <thead className="text-subtle">
              <tr>
                <th className="py-1 pr-3 font-medium">Check</th>
                <th className="py-1 pr-3 font-medium">Expected</th>
                <th className="py-1 pr-3 font-medium">Observed</th>
                <th className="py-1 font-medium">Result</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-default">
              {result.checks.map((check, index) => (
                <tr key={index} className="align-top">
                  <td className="py-1.5 pr-3 text-fg">{check.name}</td>
                  <td className="py-1.5 pr-3 font-mono break-all">{check.expected}</td>
                  <td className="py-1.5 pr-3 font-mono break-all">{check.observed}</td>
                  <td
                    className={cx(
                      "py-1.5 font-medium",
                      check.passed === false ? "text-danger" : check.passed ? "text-success" : "text-info",
                    )}
                  >
                    {check.passed === null ? "recorded" : check.passed ? "held" : "differed"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {result.exchange_ids.length > 0 ? (
        <div>
          <p className="text-xs font-medium text-muted">
            Exchanges ({result.exchange_ids.length}) — open one for its request and response
          </p>
          <ul className="mt-1 grid gap-1">
            {result.exchange_ids.map((id) => (
              <CaseExchange
                key={id}
                runId={runId}
                id={id}
                {...(byId.has(id) ? { entry: byId.get(id)! } : {})}
              />
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** One row per case of the run; a pending case shows as queued or running; a row opens to its checks. */
export function CaseResultsTable({ run }: { run: RunView }) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const results = new Map(run.results.map((result) => [result.id, result]));
  const runningId = run.status === "running" ? run.case_ids.find((id) => !results.has(id)) : undefined;
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Verdict of every case</caption>
        <TableHead columns={COLUMNS} className={RULED_HEAD} cellClassName="py-2 pr-3 font-medium" />
        <tbody className="divide-y divide-default">
          {[...run.case_ids].sort(compareCaseIds).map((id) => {
            const result = results.get(id);
            const expanded = open.has(id);
            return (
              <Fragment key={id}>
                <tr className="align-top" data-case={id}>
                  <td className="py-2 pr-3">
                    {result ? (
                      <button
                        type="button"
                        aria-expanded={expanded}
                        aria-controls={`case-${id}`}
                        onClick={() => toggle(id)}
                        className="inline-flex items-center gap-1 font-mono text-xs font-semibold whitespace-nowrap text-accent hover:underline"
                      >
                        <span aria-hidden="true">{expanded ? "▾" : "▸"}</span>
                        {id}
                      </button>
                    ) : (
                      <span className="pl-4 font-mono text-xs font-semibold text-subtle">{id}</span>
                    )}
                  </td>
                  <td className="py-2 pr-3 text-fg">
                    {result?.title ?? ""}
                    {result?.verdict === "fail" && result.reason ? (
                      <p className="mt-0.5 text-xs text-danger">{result.reason}</p>
                    ) : null}
                  </td>
                  <td className="hidden py-2 pr-3 text-xs whitespace-nowrap text-subtle sm:table-cell">
                    {result ? `§${result.spec_sections.join(", §")}` : ""}
                  </td>
                  <td className="py-2">
                    {result ? (
                      <VerdictBadge verdict={result.verdict} />
                    ) : (
                      <span className="text-xs text-subtle">
                        {id === runningId
                          ? "running…"
                          : run.status === "running" || run.status === "queued"
                            ? "waiting"
                            : "not run"}
                      </span>
                    )}
                  </td>
                </tr>
                {result && expanded ? (
                  <tr id={`case-${id}`}>
                    <td colSpan={4} className="bg-inset px-3 py-3">
                      <CheckRows runId={run.id} result={result} exchanges={run.exchanges} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
