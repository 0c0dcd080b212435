import type { Metadata } from "next";
import { PageAccess } from "@/components/team/page-access";
import { Suspense } from "react";
import { CompareView } from "@/components/compare/compare-view";
import { Skeleton } from "@/components/ui/skeleton";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Compare" };

export default async function ComparePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // Rendered per request, so the server's HTML already shows the view the URL asks for (no layout jump).
  await searchParams;
  return (
    <PageAccess page="rawExchange">
      <PageHeader
        title="Compare"
        description="Run Gift Balance Inquiry and Balance Inquiry for one card side by side against the specification, or diff any two runs from history."
      />
      <Suspense fallback={<Skeleton className="h-[36rem] w-full rounded-xl" />}>
        <CompareView />
      </Suspense>
    </PageAccess>
  );
}
