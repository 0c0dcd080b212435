"use client";

import { PageHeader } from "@/components/ui/page-header";
import { allowsGlobal, useAllows } from "@/components/team/use-me";
import { BatchList } from "./batch-list";
import { BatchPanel } from "./batch-panel";
import { LookupPanel } from "./lookup-panel";
import { RequestIdPanel } from "./request-id-panel";

/** The support agent's page: a card lookup, the session's recent lookups, a lookup by Request Id, and batches. */
export function SupportDesk() {
  // An administrator's list holds everyone's batches (the server decides; this only labels the column).
  const isAdmin = allowsGlobal(useAllows(), "audit_read");
  return (
    <>
      <PageHeader
        title="Support desk"
        description="Look up a card's eight balances (Balance Inquiry: read-only), find a transaction by its Request Id, or run a batch of cards with a masked CSV of the results. Cards show only their last 4 digits, no raw request, response or token is shown, and every lookup is kept in the audit log."
      />
      <div className="space-y-6">
        <LookupPanel />
        <RequestIdPanel />
        <BatchPanel />
        <BatchList showOwner={isAdmin} />
      </div>
    </>
  );
}
