import type { Metadata } from "next";
import { ClientCertificationPage } from "@/components/client-certification/client-certification-page";
import { PageAccess } from "@/components/team/page-access";

export const metadata: Metadata = { title: "Client certification" };

export default async function ClientCertificationRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <PageAccess page="certification">
      <ClientCertificationPage id={id} />
    </PageAccess>
  );
}
