/** The audit log's caller fields (lib/server/audit/record) for a user: the card shown as they may see it. */
import "server-only";
import type { AuditCaller } from "@/lib/server/audit/record";
import { cardNumberDisplay, type Role } from "./roles";

export function auditCaller(
  user: { id: string; roles: readonly Role[] } | null,
  clientAddress: string | null,
): AuditCaller {
  const roles = user?.roles ?? [];
  return {
    userId: user?.id ?? null,
    roles,
    clientAddress,
    cardMask: user && cardNumberDisplay(roles) === "last4" ? "last4" : "first6last4",
  };
}
