import { z } from "zod";

/** `GET /api/admin/sessions` (DESIGN.md §4): the live sessions, named by a handle (never the session's id). */
export interface AdminSession {
  /** A hash of the session's id: enough to end it, useless as a credential. */
  id: string;
  user_id: string;
  roles: string[];
  signed_in_at: string;
  /** The client address the session began from, as the console believed it (null when unknown). */
  signed_in_from: string | null;
  last_seen_at: string;
  expires_at: string;
}

export interface AdminSessionList {
  sessions: AdminSession[];
}

/** `DELETE /api/admin/sessions/{id}` and `DELETE /api/admin/sessions?user=ID`: how many sessions ended. */
export interface AdminSessionsEnded {
  ended: number;
}

/** A suspension in force (`GET /api/admin/suspensions`): the user is refused everywhere until `until`. */
export interface AdminSuspension {
  user_id: string;
  until: string;
  reason: string | null;
  suspended_by: string;
  suspended_at: string;
}

export interface AdminSuspensionList {
  suspensions: AdminSuspension[];
  /** How the console signs people in, which decides what ending a session does (the page says so). */
  auth_mode: "none" | "oidc" | "proxy";
}

/** `POST /api/admin/suspensions`: the suspension, and how many of the user's sessions it ended. */
export interface AdminSuspended {
  suspension: AdminSuspension;
  sessions_ended: number;
}

/** A suspension may last up to 30 days; longer belongs in the identity provider or the proxy's allow-list. */
export const MAX_SUSPENSION_MINUTES = 30 * 24 * 60;

const printable = /^[^\u0000-\u001f\u007f]+$/;

/** `POST /api/admin/suspensions`'s body. */
export const adminSuspendInputSchema = z
  .object({
    user_id: z.string().min(1).max(256).regex(printable, "must be printable"),
    minutes: z.number().int().min(1).max(MAX_SUSPENSION_MINUTES),
    reason: z.string().max(500).regex(printable, "must be printable").optional(),
  })
  .strict();

export type AdminSuspendInput = z.input<typeof adminSuspendInputSchema>;
