import type { Metadata } from "next";
import { Suspense } from "react";
import { CertificationView } from "@/components/certification/certification-view";
import { PageAccess } from "@/components/team/page-access";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { describeCatalogue } from "@/lib/server/certification/catalogue";

export const metadata: Metadata = { title: "Certification" };

export default function CertificationPage() {
  // A role without certification runs sees why before any form (the server refuses the calls anyway).
  return (
    <PageAccess page="certification">
      <PageHeader
        title="Certification"
        description="Run the specification's cases against an environment on the server, follow them live, and download the signed evidence bundle for the API operator."
      />
      <Suspense fallback={<Skeleton className="h-[36rem] w-full rounded-xl" />}>
        <CertificationView catalogue={describeCatalogue()} />
      </Suspense>
    </PageAccess>
  );
}
