import { z } from "zod";
import { isoTime } from "./contracts";

/** `GET /api/admin/sessions` (docs/design.md §4): the live sessions, named by a handle (never the session's id). */
export const adminSessionListSchema = z.object({
  sessions: z.array(
    z.object({
      /** A hash of the session's id: enough to end it, useless as a credential. */
      id: z.string(),
      user_id: z.string(),
      roles: z.array(z.string()),
      signed_in_at: isoTime,
      /** The client address the session began from, as the console believed it (null when unknown). */
      signed_in_from: z.string().nullable(),
      last_seen_at: isoTime,
      expires_at: isoTime,
    }),
  ),
});
export type AdminSessionList = z.infer<typeof adminSessionListSchema>;
export type AdminSession = AdminSessionList["sessions"][number];

/** `DELETE /api/admin/sessions/{id}` and `DELETE /api/admin/sessions?user=ID`: how many sessions ended. */
export const adminSessionsEndedSchema = z.object({
  ended: z.number().int().nonnegative(),
});
export type AdminSessionsEnded = z.infer<typeof adminSessionsEndedSchema>;

/** What ending a user's sessions or suspending them stopped of what ran in their name. */
const userWorkStoppedShape = {
  /** Their support batches that were queued or running, cancelled (cards not yet sent are never sent). */
  batches_stopped: z.number().int().nonnegative(),
  /** Their certification runs that were queued or running, cancelled. */
  runs_cancelled: z.number().int().nonnegative(),
};

/** `DELETE /api/admin/sessions?user=ID`: the sessions ended, and what ran in the user's name, stopped. */
export const adminUserSessionsEndedSchema = z.object({
  ended: z.number().int().nonnegative(),
  sessions_ended: z.number().int().nonnegative(),
  ...userWorkStoppedShape,
});
export type AdminUserSessionsEnded = z.infer<typeof adminUserSessionsEndedSchema>;

/** A suspension in force (`GET /api/admin/suspensions`): the user is refused everywhere until `until`. */
const adminSuspensionSchema = z.object({
  user_id: z.string(),
  until: isoTime,
  reason: z.string().nullable(),
  suspended_by: z.string(),
  suspended_at: isoTime,
});
export type AdminSuspension = z.infer<typeof adminSuspensionSchema>;

export const adminSuspensionListSchema = z.object({
  suspensions: z.array(adminSuspensionSchema),
  /** How the console signs people in, which decides what ending a session does (the page says so). */
  auth_mode: z.enum(["none", "oidc", "proxy"]),
});
export type AdminSuspensionList = z.infer<typeof adminSuspensionListSchema>;

/** `POST /api/admin/suspensions`: the suspension, how many of the user's sessions it ended, what it stopped. */
export const adminSuspendedSchema = z.object({
  suspension: adminSuspensionSchema,
  /** Whether the console had seen this user id before (in its audit log). */
  user_seen: z.boolean(),
  sessions_ended: z.number().int().nonnegative(),
  ...userWorkStoppedShape,
});
export type AdminSuspended = z.infer<typeof adminSuspendedSchema>;

/** A suspension may last up to 30 days; longer belongs in the identity provider or the proxy's allow-list. */
const MAX_SUSPENSION_MINUTES = 30 * 24 * 60;

const printable = /^[^\u0000-\u001f\u007f]+$/;

/** `POST /api/admin/suspensions`'s body. */
export const adminSuspendInputSchema = z
  .object({
    user_id: z.string().min(1).max(256).regex(printable, "must be printable"),
    minutes: z.number().int().min(1).max(MAX_SUSPENSION_MINUTES),
    reason: z.string().max(500).regex(printable, "must be printable").optional(),
    /** The admin was told the console has never seen this user id, and suspends it anyway (409 otherwise). */
    unknown_user: z.literal(true).optional(),
  })
  .strict();
