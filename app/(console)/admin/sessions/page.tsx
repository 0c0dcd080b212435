import type { Metadata } from "next";
import { SessionsView } from "@/components/admin/sessions-view";
import { PageAccess } from "@/components/team/page-access";

export const metadata: Metadata = { title: "Active sessions" };

export default function AdminSessionsPage() {
  return (
    <PageAccess page="admin">
      <SessionsView />
    </PageAccess>
  );
}
