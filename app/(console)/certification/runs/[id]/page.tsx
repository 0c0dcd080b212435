import type { Metadata } from "next";
import { RunPage } from "@/components/certification/run-page";
import { PageAccess } from "@/components/team/page-access";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Certification run" };

export default async function CertificationRunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <PageAccess page="certification">
      <PageHeader
        title="Certification run"
        description="One run's cases, verdicts and checks, and its signed evidence."
      />
      <RunPage id={id} />
    </PageAccess>
  );
}
