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
