"use client";

import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/skeleton";
import { useClientCertification, useHandedOverSecret } from "@/lib/client/use-client-certification-api";
import { ClientCertification } from "./your-application";
import { FaultCertification } from "./fault-certification";

function BackLink() {
  return (
    <Link href="/certification" className="underline">
      Back to Certification
    </Link>
  );
}

/**
 * A client certification's own page (docs/design.md §11): a reload, another tab or a shared link returns to its
 * steps, live log, checks, finish and evidence. Another user's is not found, as the API answers.
 */
export function ClientCertificationPage({ id }: { id: string }) {
  const { data, error } = useClientCertification(id);
  const secret = useHandedOverSecret(id);
  return (
    <>
      <PageHeader
        title="Client certification"
        description={
          <>
            Your application&apos;s calls to the embedded sandbox, judged against the specification&apos;s
            client duties. This page&apos;s link brings you (or an admin) back to it. <BackLink />
          </>
        }
      />
      {error && !data ? (
        <Alert tone="danger" role="alert" title={error.status === 404 ? "Not found" : "Cannot be shown"}>
          {error.status === 404
            ? "There is no client certification of yours with this address. "
            : `${error.message} `}
          <BackLink />
        </Alert>
      ) : !data ? (
        <Skeleton className="h-64" />
      ) : (
        <Panel
          title={`Started ${data.started_at.slice(0, 16).replace("T", " ")} UTC`}
          description={
            <span className="font-mono break-all">
              {data.client_id} · {data.operator}
              {data.finished_at ? ` · ended ${data.finished_at.slice(0, 16).replace("T", " ")} UTC` : ""}
            </span>
          }
        >
          {data.mode === "faults" ? (
            <FaultCertification view={data} />
          ) : (
            <ClientCertification view={data} secret={secret} />
          )}
        </Panel>
      )}
    </>
  );
}
