import type { Metadata } from "next";
import { PageAccess } from "@/components/team/page-access";
import { InquiryView } from "@/components/inquiry/inquiry-view";

export const metadata: Metadata = { title: "Inquiry" };

export default function InquiryPage() {
  return (
    <PageAccess page="rawExchange">
      <InquiryView />
    </PageAccess>
  );
}
