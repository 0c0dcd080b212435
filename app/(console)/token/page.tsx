import type { Metadata } from "next";
import { PageAccess } from "@/components/team/page-access";
import { TokenView } from "@/components/token/token-view";

export const metadata: Metadata = { title: "Token" };

export default function TokenPage() {
  return (
    <PageAccess page="token">
      <TokenView />
    </PageAccess>
  );
}
