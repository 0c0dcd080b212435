/**
 * Suspensions for administrators (`/api/admin/suspensions`): the body's validation, the answer's shape, and
 * suspending, which also ends the user's sessions on every instance.
 */
import "server-only";
import type { z } from "zod";
import { adminSuspendInputSchema, type AdminSuspension } from "@/lib/shared/admin-contract";
import { ApiError } from "@/lib/server/util/errors";
import type { AuditLog } from "@/lib/server/audit";
import type { SessionStore } from "./store";
import { type Suspension, type SuspensionStore } from "./suspensions";

export const suspendInputSchema = adminSuspendInputSchema;

export function shownSuspension(row: Suspension): AdminSuspension {
  return {
    user_id: row.userId,
    until: row.until.toISOString(),
    reason: row.reason,
    suspended_by: row.suspendedBy,
    suspended_at: row.suspendedAt.toISOString(),
  };
}

/**
 * Whether the console has seen `userId` (in its audit log: every sign-in and call is there), matched exactly, as
 * the identity provider sends ids: `Eve` is not `eve`. Unseen, it is 409 `unknown_user` with the seen ids that
 * differ only in case, unless the admin confirmed it (`unknown_user: true`).
 */
async function assertSeen(auditLog: Pick<AuditLog, "users">, userId: string, confirmed: boolean) {
  const { users } = await auditLog.users({ q: userId, limit: 50 });
  if (users.includes(userId)) return true;
  if (confirmed) return false;
  const similar = users.filter((id) => id.toLowerCase() === userId.toLowerCase());
  throw new ApiError(
    "unknown_user",
    `The console has never seen the user ${JSON.stringify(userId)}` +
      (similar.length > 0
        ? ` (ids match exactly; it has seen ${similar.map((id) => JSON.stringify(id)).join(", ")})`
        : "") +
      ". Suspend anyway only if that is the id your identity provider sends.",
    { user_id: userId, similar },
  );
}

/** Suspends and ends every session of the user; an admin may not lock themselves out (400). */
export async function suspendUser(
  stores: { suspensions: SuspensionStore; sessionStore: SessionStore; auditLog: Pick<AuditLog, "users"> },
  input: z.output<typeof suspendInputSchema>,
  by: string,
): Promise<{ suspension: Suspension; sessionsEnded: number; seen: boolean }> {
  if (input.user_id === by) {
    throw new ApiError("validation_failed", "You cannot suspend yourself.", {
      fields: { user_id: ["is you: another administrator must do it"] },
    });
  }
  const seen = await assertSeen(stores.auditLog, input.user_id, input.unknown_user === true);
  const suspension = await stores.suspensions.suspend({
    userId: input.user_id,
    minutes: input.minutes,
    reason: input.reason ?? null,
    by,
  });
  const sessionsEnded = await stores.sessionStore.endAllForUser(input.user_id, "revoked");
  return { suspension, sessionsEnded, seen };
}
