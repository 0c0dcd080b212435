/** The catalogue's entries for administrators: the audit log, live sessions and suspensions (docs/design.md §6, §7). */
import { z } from "zod";
import { adminSuspendInputSchema } from "@/lib/shared/admin-contract";
import { auditUsersQuerySchema } from "@/lib/server/audit";
import { allowGlobal } from "@/lib/server/http/access";
import type { RouteDeclaration } from "@/lib/server/http/declaration";
import {
  adminLiftedSchema,
  adminSessionListSchema,
  adminSessionsEndedSchema,
  adminUserSessionsEndedSchema,
  adminSuspendedSchema,
  adminSuspensionListSchema,
  auditFilterQuerySchema,
  auditPageSchema,
  auditUserListSchema,
  auditVerifySchema,
} from "./console-schemas";

const SESSIONS = allowGlobal("session_admin");

export const adminRoutes = {
  "/api/audit": {
    GET: {
      operationId: "readAuditLog",
      summary: "Admin: the audit log, newest first, with filters and a cursor",
      access: allowGlobal("audit_read"),
      query: auditFilterQuerySchema,
      answers: { 200: { description: "One page of rows.", schema: auditPageSchema } },
    },
  },
  "/api/audit/users": {
    GET: {
      operationId: "listAuditUsers",
      summary: "Admin: the user ids the audit log knows that contain `q` (any case), in order (audited)",
      access: allowGlobal("audit_read"),
      query: auditUsersQuerySchema,
      answers: { 200: { description: "The matching user ids.", schema: auditUserListSchema } },
    },
  },
  "/api/audit/verify": {
    GET: {
      operationId: "verifyAuditLog",
      summary: "Admin: check the audit log's hash chain",
      access: allowGlobal("audit_read"),
      query: z.object({ from: z.enum(["start", "checkpoint"]).default("start") }),
      parameters: {
        from: {
          description:
            "checkpoint: start at the last checkpoint an earlier verify found intact; start (default): row 1",
          example: "start",
        },
      },
      answers: { 200: { description: "The chain's state.", schema: auditVerifySchema } },
    },
  },
  "/api/audit/export.csv": {
    GET: {
      operationId: "exportAuditLog",
      summary: "Admin: the audit log as CSV, with the same filters",
      access: allowGlobal("audit_read", "audit_export"),
      query: auditFilterQuerySchema.omit({ cursor: true, limit: true }),
      answers: {
        200: { description: "CSV.", media: "text/csv", headers: { "Content-Disposition": "An attachment." } },
      },
    },
  },
  "/api/admin/sessions": {
    GET: {
      operationId: "listSessions",
      summary: "Admin: the live sessions (who, since when, last seen), each named by a handle",
      access: SESSIONS,
      answers: { 200: { description: "The live sessions.", schema: adminSessionListSchema } },
    },
    DELETE: {
      operationId: "endUserSessions",
      summary: "Admin: end every live session of a user (audited)",
      access: SESSIONS,
      query: z.object({ user: z.string().min(1).max(256) }),
      parameters: { user: { description: "The user's id.", example: "sam" } },
      answers: {
        200: {
          description: "How many sessions ended, and the user's batches and certification runs stopped.",
          schema: adminUserSessionsEndedSchema,
        },
      },
    },
  },
  "/api/admin/sessions/[id]": {
    DELETE: {
      operationId: "endSession",
      summary: "Admin: end one live session by its handle (audited)",
      access: SESSIONS,
      parameters: { id: { description: "The session's handle (`sessions[].handle` of the list)." } },
      answers: { 200: { description: "The session ended.", schema: adminSessionsEndedSchema } },
      errors: { not_found: "No such live session: it may have ended already." },
    },
  },
  "/api/admin/suspensions": {
    GET: {
      operationId: "listSuspensions",
      summary: "Admin: the suspensions in force, and the console's auth mode",
      access: SESSIONS,
      answers: { 200: { description: "The suspensions in force.", schema: adminSuspensionListSchema } },
    },
    POST: {
      operationId: "suspendUser",
      summary:
        "Admin: keep a user out for `minutes` (1 to 43,200) on every instance (403 `user_suspended`); ends their sessions; audited",
      access: SESSIONS,
      body: { schema: adminSuspendInputSchema, example: { user_id: "sam", minutes: 60, reason: "TICKET-1" } },
      answers: {
        201: {
          description: "The suspension, the sessions ended and the user's batches and runs stopped.",
          schema: adminSuspendedSchema,
        },
      },
      errors: {
        unknown_user:
          "The console has never seen this user id (ids match exactly); send `unknown_user: true` to suspend it anyway.",
        validation_failed: "The body is not valid, or names the admin themselves.",
      },
    },
  },
  "/api/admin/suspensions/[user]": {
    DELETE: {
      operationId: "liftSuspension",
      summary: "Admin: lift a user's suspension (audited)",
      access: SESSIONS,
      parameters: { user: { description: "The suspended user's id.", example: "sam" } },
      answers: { 200: { description: "The suspension was lifted.", schema: adminLiftedSchema } },
      errors: { not_found: "No suspension in force for that user: it may have ended already." },
    },
  },
} as const satisfies Record<string, Record<string, RouteDeclaration>>;
