import type { Metadata } from "next";
import { BatchView } from "@/components/support/batch-view";

export const metadata: Metadata = { title: "Support batch" };

export default async function SupportBatchPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <BatchView id={id} />;
}
