import type { Metadata } from "next";
import { Suspense } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import { AuditView } from "@/components/audit/audit-view";
import { PageAccess } from "@/components/team/page-access";

export const metadata: Metadata = { title: "Audit log" };

export default function AuditPage() {
  return (
    <PageAccess page="audit">
      {/* The filters come from the address (a shared view): read on the client, so behind Suspense. */}
      <Suspense fallback={<Skeleton className="h-[32rem] w-full rounded-xl" />}>
        <AuditView />
      </Suspense>
    </PageAccess>
  );
}
