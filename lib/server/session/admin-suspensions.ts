/**
 * Suspensions for administrators (`/api/admin/suspensions`): the body's validation, the answer's shape, and
 * suspending, which also ends the user's sessions on every instance.
 */
import "server-only";
import type { z } from "zod";
import { adminSuspendInputSchema, type AdminSuspension } from "@/lib/shared/admin-contract";
import { ApiError } from "@/lib/server/util/errors";
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

/** Suspends and ends every session of the user; an admin may not lock themselves out (400). */
export async function suspendUser(
  stores: { suspensions: SuspensionStore; sessionStore: SessionStore },
  input: z.output<typeof suspendInputSchema>,
  by: string,
): Promise<{ suspension: Suspension; sessionsEnded: number }> {
  if (input.user_id === by) {
    throw new ApiError("validation_failed", "You cannot suspend yourself.", {
      fields: { user_id: ["is you: another administrator must do it"] },
    });
  }
  const suspension = await stores.suspensions.suspend({
    userId: input.user_id,
    minutes: input.minutes,
    reason: input.reason ?? null,
    by,
  });
  const sessionsEnded = await stores.sessionStore.endAllForUser(input.user_id, "revoked");
  return { suspension, sessionsEnded };
}
