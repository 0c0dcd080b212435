import type { Metadata } from "next";
import { InquiryView } from "@/components/inquiry/inquiry-view";

export const metadata: Metadata = { title: "Inquiry" };

export default function InquiryPage() {
  return <InquiryView />;
}
