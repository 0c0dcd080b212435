import type { Metadata } from "next";
import { MonitorsView } from "@/components/monitors/monitors-view";
import { PageAccess } from "@/components/team/page-access";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Monitors" };

export default function MonitorsPage() {
  return (
    <PageAccess page="monitors">
      <PageHeader
        title="Monitors"
        description="Certification on a schedule: each monitor runs the specification's cases against one environment and alerts when the result changes."
      />
      <MonitorsView />
    </PageAccess>
  );
}
