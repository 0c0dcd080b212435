import type { Metadata } from "next";
import { SupportDesk } from "@/components/support/support-desk";

export const metadata: Metadata = { title: "Support desk" };

export default function SupportPage() {
  return <SupportDesk />;
}
