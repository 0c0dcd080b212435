"use client";

import { PageHeader } from "@/components/ui/page-header";
import { BatchPanel } from "./batch-panel";
import { LookupPanel } from "./lookup-panel";

/** The support agent's page: one box for a lookup, the session's recent lookups, and batches. */
export function SupportDesk() {
  return (
    <>
      <PageHeader
        title="Support desk"
        description="Read-only balance lookups (Balance Inquiry): cards are shown by their last 4 digits, and every lookup is kept in the audit log."
      />
      <div className="space-y-6">
        <LookupPanel />
        <BatchPanel />
      </div>
    </>
  );
}
