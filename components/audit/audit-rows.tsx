import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import type { AuditRowView } from "./audit-types";

function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { hour12: false });
}

const dash = <span className="text-subtle">–</span>;
const orDash = (value: ReactNode) => (value === null || value === undefined || value === "" ? dash : value);

function Outcome({ row }: { row: AuditRowView }) {
  return <Badge tone={row.outcome === "success" ? "success" : "danger"}>{row.outcome}</Badge>;
}

function Time({ row }: { row: AuditRowView }) {
  return (
    <time dateTime={row.at} title={row.at} className="tabular-nums">
      {formatTime(row.at)}
    </time>
  );
}

/** Ids and cards: broken only where a line has no room for them whole. */
const mono = "font-mono text-xs wrap-anywhere";

/**
 * Event names, Request Ids and reasons, breakable after each `_` and `-` (never inside a word):
 * `client_certification_` then `step_armed`, not `transaction_looku` then `p`.
 */
function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[_-])/);
  return (
    <>
      {parts.map((part, index) => (
        <span key={index}>
          {part}
          {index < parts.length - 1 ? <wbr /> : null}
        </span>
      ))}
    </>
  );
}

/**
 * Wide screens: one table row per entry, every column of the log; from 1400 px, where the log takes the room
 * beside the console's column (AuditView), the event and Request Id columns fit their values on one line.
 */
function AuditTable({ rows }: { rows: AuditRowView[] }) {
  const head = "px-2 py-2 text-left text-xs font-semibold text-body";
  const cell = "px-2 py-2 align-top";
  return (
    <table className="hidden w-full table-fixed border-collapse text-sm lg:table" data-testid="audit-table">
      <caption className="sr-only">Audit log entries, newest first</caption>
      <thead className="border-b border-raised">
        <tr>
          <th scope="col" className={`${head} w-12`}>
            #
          </th>
          <th scope="col" className={`${head} w-32`}>
            Time
          </th>
          <th scope="col" className={`${head} w-28 min-[1400px]:w-32`}>
            User
          </th>
          <th scope="col" className={`${head} w-36 min-[1400px]:w-60`}>
            Event
          </th>
          <th scope="col" className={`${head} w-24`}>
            Environment
          </th>
          <th scope="col" className={`${head} w-36`}>
            Card
          </th>
          <th scope="col" className={`${head} w-20`}>
            Upstream
          </th>
          <th scope="col" className={`${head} min-[1400px]:w-72`}>
            Request Id
          </th>
          <th scope="col" className={`${head} w-20`}>
            Outcome
          </th>
          <th scope="col" className={head}>
            Reason
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-subtle">
        {rows.map((row) => (
          <tr key={row.seq} data-testid="audit-row">
            <td className={`${cell} tabular-nums text-muted`}>{row.seq}</td>
            <td className={`${cell} text-xs`}>
              <Time row={row} />
            </td>
            <td className={cell}>
              <span className="block wrap-anywhere">{orDash(row.user_id)}</span>
              <span className="block text-xs text-muted">
                {row.roles.length ? row.roles.join(", ") : "no role"}
              </span>
            </td>
            <td className={cell}>
              <span className="block font-medium wrap-anywhere">
                <Breakable text={row.event} />
              </span>
              {row.operation && row.operation !== row.event ? (
                <span className="block text-xs wrap-anywhere text-muted">
                  <Breakable text={row.operation} />
                </span>
              ) : null}
            </td>
            <td className={cell}>{orDash(row.environment)}</td>
            <td className={`${cell} ${mono}`}>{orDash(row.card)}</td>
            <td className={`${cell} tabular-nums`}>{orDash(row.upstream_status)}</td>
            <td className={`${cell} ${mono}`}>
              {row.request_id ? <Breakable text={row.request_id} /> : dash}
            </td>
            <td className={cell}>
              <Outcome row={row} />
            </td>
            <td className={`${cell} text-xs wrap-break-word`}>
              {row.reason ? <Breakable text={row.reason} /> : dash}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

/** Narrow screens: one card per entry, the same fields as labelled pairs. */
function AuditCards({ rows }: { rows: AuditRowView[] }) {
  return (
    <ol className="divide-y divide-default lg:hidden" aria-label="Audit log entries, newest first">
      {rows.map((row) => (
        <li key={row.seq} className="py-3 text-sm" data-testid="audit-card">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="font-medium wrap-anywhere">
              <Breakable text={row.event} />
            </span>
            <Outcome row={row} />
            <span className="ml-auto text-xs text-muted">
              #{row.seq} · <Time row={row} />
            </span>
          </div>
          <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1.5 sm:grid-cols-3">
            <Item label="User">
              {orDash(row.user_id)}
              <span className="block text-xs text-muted">
                {row.roles.length ? row.roles.join(", ") : "no role"}
              </span>
            </Item>
            <Item label="Environment">{orDash(row.environment)}</Item>
            <Item label="Operation">{orDash(row.operation)}</Item>
            <Item label="Card">
              <span className={mono}>{orDash(row.card)}</span>
            </Item>
            <Item label="Upstream">{orDash(row.upstream_status)}</Item>
            <Item label="Request Id">
              <span className={mono}>{orDash(row.request_id)}</span>
            </Item>
            {row.reason ? (
              <div className="col-span-2 sm:col-span-3">
                <dt className="text-xs text-muted">Reason</dt>
                <dd className="break-words">{row.reason}</dd>
              </div>
            ) : null}
          </dl>
        </li>
      ))}
    </ol>
  );
}

export function AuditRows({ rows }: { rows: AuditRowView[] }) {
  return (
    <>
      <AuditTable rows={rows} />
      <AuditCards rows={rows} />
    </>
  );
}
