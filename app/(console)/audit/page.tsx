import type { Metadata } from "next";
import { AuditView } from "@/components/audit/audit-view";
import { PageAccess } from "@/components/team/page-access";

export const metadata: Metadata = { title: "Audit log" };

export default function AuditPage() {
  return (
    <PageAccess page="audit">
      <AuditView />
    </PageAccess>
  );
}
