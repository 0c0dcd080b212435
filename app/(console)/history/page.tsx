import type { Metadata } from "next";
import { PageAccess } from "@/components/team/page-access";
import { Suspense } from "react";
import { HistoryView } from "@/components/history/history-view";
import { Skeleton } from "@/components/ui/skeleton";

export const metadata: Metadata = { title: "History" };

export default async function HistoryPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // Rendered per request, so the server's HTML already has the filters the URL asks for (no layout jump).
  await searchParams;
  return (
    <PageAccess page="rawExchange">
      <Suspense fallback={<Skeleton className="h-[32rem] w-full rounded-xl" />}>
        <HistoryView />
      </Suspense>
    </PageAccess>
  );
}
