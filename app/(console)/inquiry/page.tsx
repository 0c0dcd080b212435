import type { Metadata } from "next";
import { PageAccess } from "@/components/team/page-access";
import { InquiryView } from "@/components/inquiry/inquiry-view";
import { TEST_CARDS } from "@/lib/sandbox/fixtures";
import { consoleRoot } from "@/lib/server/root";

// Reads the server's configuration (embedded sandbox on or off) at request time, never at build time.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Inquiry" };

export default function InquiryPage() {
  // The embedded sandbox's own fixtures, offered beside the card field while it is the session's environment.
  const testCards = consoleRoot().config.embeddedSandbox
    ? TEST_CARDS.map(({ cardNumber, description }) => ({ cardNumber, description }))
    : [];
  return (
    <PageAccess page="rawExchange">
      <InquiryView testCards={testCards} />
    </PageAccess>
  );
}
