import type { Metadata } from "next";
import { SupportDesk } from "@/components/support/support-desk";
import { PageAccess } from "@/components/team/page-access";

export const metadata: Metadata = { title: "Support desk" };

export default function SupportPage() {
  return (
    <PageAccess page="support">
      <SupportDesk />
    </PageAccess>
  );
}
