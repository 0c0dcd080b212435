import type { Metadata } from "next";
import { ConnectView } from "@/components/connect/connect-view";
import { PageAccess } from "@/components/team/page-access";

export const metadata: Metadata = { title: "Connect" };

export default function ConnectPage() {
  return (
    <PageAccess page="connect">
      <ConnectView />
    </PageAccess>
  );
}
