"use client";

import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/skeleton";
import { clientCertificationPage, useClientCertifications } from "@/lib/client/use-client-certification-api";
import type { ClientCertificationSummary, ClientVerdict } from "@/lib/shared/client-certification-contract";

const STATUS_TONE = { waiting: "accent", running: "accent", done: "success", expired: "warning" } as const;

function counts(summary: ClientCertificationSummary): string {
  const tally: Record<ClientVerdict, number> = { pass: 0, fail: 0, not_observed: 0 };
  for (const { verdict } of summary.verdicts) tally[verdict] += 1;
  return `${tally.pass} pass · ${tally.fail} fail · ${tally.not_observed} not observed`;
}

/** "2026-11-27 00:41 UTC": the same for everyone who opens a shared list. */
function when(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** The caller's certifications, newest first, each a link to its page (docs/design.md §11). */
export function ClientCertificationList() {
  const { data, error } = useClientCertifications();
  if (error) {
    return (
      <Alert tone="danger" title="Your certifications cannot be listed">
        {error.message}
      </Alert>
    );
  }
  if (!data) return <Skeleton className="h-16" />;
  if (data.certifications.length === 0) {
    return <p className="text-sm text-muted">No certification started yet.</p>;
  }
  return (
    <section aria-labelledby="client-certification-list" className="grid min-w-0 grid-cols-1 gap-2">
      <h3 id="client-certification-list" className="text-base font-semibold">
        Your certifications
      </h3>
      <ul className="grid min-w-0 grid-cols-1 gap-2">
        {data.certifications.map((summary) => (
          <li
            key={summary.id}
            data-certification={summary.id}
            className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-raised px-3 py-2 text-sm"
          >
            <Link href={clientCertificationPage(summary.id)} className="font-medium text-info underline">
              Started {when(summary.started_at)}
            </Link>
            <Badge tone={STATUS_TONE[summary.status]}>{summary.status}</Badge>
            <span className="text-body">{counts(summary)}</span>
            <span className="min-w-0 font-mono text-xs break-all text-muted">
              {summary.client_id}
              {summary.operator ? ` · ${summary.operator}` : ""}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
