import type { Metadata } from "next";
import { BatchView } from "@/components/support/batch-view";
import { PageAccess } from "@/components/team/page-access";

export const metadata: Metadata = { title: "Support batch" };

export default async function SupportBatchPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <PageAccess page="support">
      <BatchView id={id} />
    </PageAccess>
  );
}
