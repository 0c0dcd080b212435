"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import useSWR from "swr";
import { INQUIRY_OPERATIONS, operationLabel } from "@/lib/shared/operations";
import { teamRunKey, teamRunPageUrl, teamRunsKey, type TeamRunFilters } from "@/lib/client/api-keys";
import { getJson, type ApiClientError } from "@/lib/client/fetcher";
import type { TeamRunListResponse, TeamRunResponse } from "@/lib/server/inquiry/runs/api";
import { ApiErrorAlert } from "@/components/exchange/api-error-alert";
import { CopyButton } from "@/components/exchange/copy-button";
import { ExchangeView } from "@/components/exchange/exchange-view";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { HttpStatusBadge } from "@/components/ui/http-status-badge";
import { Panel } from "@/components/ui/panel";
import { SelectField } from "@/components/ui/select-field";

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** The run a shared link names (`?team_run=`), with its exchange as recorded and a link to copy. */
function TeamRunDetail({ id }: { id: string }) {
  const { data, error } = useSWR<TeamRunResponse, ApiClientError>(teamRunKey(id), getJson);
  if (error) return <ApiErrorAlert error={error} />;
  if (!data) return <p className="text-sm text-muted">Loading the run…</p>;
  return (
    <div id="team-run" className="space-y-3" data-testid="team-run">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-body">
        <p>
          Run by <span className="font-medium">{data.user_name}</span> on{" "}
          {timeFormat.format(new Date(data.started_at))}
          {data.request_id ? (
            <>
              {" "}
              · Request Id <code className="font-mono text-xs break-all">{data.request_id}</code>
            </>
          ) : null}
        </p>
        <CopyButton
          variant="secondary"
          label="Copy link"
          text={() => new URL(teamRunPageUrl(id), window.location.origin).href}
        />
      </div>
      <ExchangeView exchange={data.exchange} title="Team run: request and response" headingLevel={3} />
    </div>
  );
}

function TeamRunsSearch({ onSearch }: { onSearch: (filters: TeamRunFilters) => void }) {
  const baseId = useId();
  const [filters, setFilters] = useState<TeamRunFilters>({});
  const set = (key: keyof TeamRunFilters) => (value: string) =>
    setFilters((current) => ({ ...current, [key]: value }));
  function submit(event: FormEvent) {
    event.preventDefault();
    onSearch({ ...filters, request_id: filters.request_id?.trim(), user: filters.user?.trim() });
  }
  return (
    <form onSubmit={submit} role="search" aria-label="Team runs" className="flex flex-wrap items-end gap-3">
      <Field
        id={`${baseId}-request-id`}
        label="Request Id"
        value={filters.request_id ?? ""}
        onChange={(event) => set("request_id")(event.target.value)}
        className="font-mono"
      />
      <Field
        id={`${baseId}-user`}
        label="User"
        value={filters.user ?? ""}
        onChange={(event) => set("user")(event.target.value)}
      />
      <SelectField
        id={`${baseId}-operation`}
        label="Operation"
        value={filters.operation ?? ""}
        onChange={set("operation")}
      >
        <option value="">Any</option>
        {INQUIRY_OPERATIONS.map((operation) => (
          <option key={operation} value={operation}>
            {operationLabel(operation)}
          </option>
        ))}
      </SelectField>
      <Button type="submit">Search</Button>
    </form>
  );
}

/**
 * History's "Team runs" (team consoles): every inquiry the team ran, kept on the server, found by Request Id,
 * user or operation; each opens by a link anyone whose role may see exchanges can follow.
 */
export function TeamRuns() {
  const titleId = useId();
  const openId = useSearchParams().get("team_run");
  const [filters, setFilters] = useState<TeamRunFilters>({});
  const { data, error } = useSWR<TeamRunListResponse, ApiClientError>(teamRunsKey(filters), getJson);
  return (
    <Panel
      className="mt-6 min-w-0"
      title="Team runs"
      titleId={titleId}
      description={`Every inquiry your team ran on this console, kept on the server${data ? ` for ${data.retention_days} days` : ""}, masked and redacted as recorded.`}
    >
      <div className="space-y-4">
        {openId ? <TeamRunDetail id={openId} /> : null}
        <TeamRunsSearch onSearch={setFilters} />
        {error ? <ApiErrorAlert error={error} /> : null}
        {data && data.runs.length === 0 ? <p className="text-sm text-muted">No team run matches.</p> : null}
        {data && data.runs.length > 0 ? (
          <ul className="divide-y divide-subtle" aria-labelledby={titleId} data-testid="team-runs">
            {data.runs.map((run) => (
              <li key={run.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2.5 text-sm">
                <time dateTime={run.started_at} className="text-muted tabular-nums">
                  {timeFormat.format(new Date(run.started_at))}
                </time>
                <span className="font-medium text-fg">{operationLabel(run.operation)}</span>
                <span className="font-mono text-xs text-muted">{run.card ?? "—"}</span>
                <span className="text-body">{run.user_name}</span>
                <HttpStatusBadge status={run.status} />
                {run.request_id ? (
                  <code className="min-w-0 font-mono text-xs break-all text-muted">{run.request_id}</code>
                ) : null}
                <Link
                  href={teamRunPageUrl(run.id)}
                  className="ml-auto font-medium text-accent hover:underline"
                  aria-label={`Open the ${operationLabel(run.operation)} run by ${run.user_name} at ${timeFormat.format(new Date(run.started_at))}`}
                >
                  Open
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </Panel>
  );
}
