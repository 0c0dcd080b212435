"use client";

import { useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import { onDemand } from "@/lib/client/on-demand";
import type { CaseInfo } from "@/lib/shared/certification-contract";
import { PostmanCollectionLinks } from "./postman-collection-links";
import { RunsList } from "./runs-list";
import { StartRunForm } from "./start-run-form";
import { VerifyBundle } from "./verify-bundle";

// Below the form or opened by a choice: each loads when the page is idle, so the first load stays small.
const runDetailModule = onDemand(() => import("./run-detail"));
const yourApplicationModule = onDemand(() => import("@/components/client-certification/your-application"));

/** The run shown and the run it is compared with live in the URL (?run=…&compare=…), so both can be linked. */
function replaceSearch(update: (params: URLSearchParams) => void) {
  const params = new URLSearchParams(window.location.search);
  update(params);
  const query = params.toString();
  window.history.replaceState(null, "", query ? `?${query}` : window.location.pathname);
}

export function CertificationView({ catalogue }: { catalogue: CaseInfo[] }) {
  const search = useSearchParams();
  const runId = search.get("run");
  const baselineId = search.get("compare");

  const showRun = useCallback((id: string) => {
    replaceSearch((params) => {
      params.set("run", id);
      params.delete("compare");
    });
  }, []);
  const runDetail = runDetailModule.useModule();
  const yourApplication = yourApplicationModule.useModule();
  const setBaseline = useCallback((id: string | null) => {
    replaceSearch((params) => {
      if (id) params.set("compare", id);
      else params.delete("compare");
    });
  }, []);

  return (
    <div className="grid min-w-0 grid-cols-1 gap-6">
      <StartRunForm catalogue={catalogue} onStarted={showRun} />
      {runId ? (
        runDetail ? (
          <runDetail.RunDetail key={runId} id={runId} baselineId={baselineId} onBaseline={setBaseline} />
        ) : (
          <Skeleton className="h-64" />
        )
      ) : null}
      <RunsList selected={runId} onSelect={showRun} catalogueSize={catalogue.length} />
      {yourApplication ? <yourApplication.YourApplication /> : <Skeleton className="h-48" />}
      <VerifyBundle />
      <PostmanCollectionLinks />
    </div>
  );
}
