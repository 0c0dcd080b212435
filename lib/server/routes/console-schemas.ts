/**
 * zod schemas of the console's response bodies (docs/design.md §4) that the OpenAPI document describes. The shapes a
 * route builds and a page reads are lib/shared's (their types are inferred from the schema, so the document
 * cannot drift from the code) and re-exported here; the rest are the answers only this document names.
 */
import { z } from "zod";
import { isoTime } from "@/lib/shared/contracts";
import { RESULT_FILTERS } from "@/lib/shared/support-contract";

export {
  errorBodySchema,
  exchangeRecordSchema,
  inquiryAnswerSchema,
  logoutResultSchema,
  sessionInfoSchema,
  tokenResultSchema,
} from "@/lib/shared/contracts";
export {
  adminSessionListSchema,
  adminSessionsEndedSchema,
  adminSuspendedSchema,
  adminUserSessionsEndedSchema,
  adminSuspensionListSchema,
} from "@/lib/shared/admin-contract";
export { auditPageSchema, auditUserListSchema, auditVerifySchema } from "@/lib/shared/audit-contract";
export {
  publicJwkSchema,
  runListSchema,
  runViewSchema,
  startRunResultSchema,
  verifyResultSchema,
} from "@/lib/shared/certification-schemas";
export {
  clientCertificationListSchema,
  clientCertificationViewSchema,
  startedClientCertificationSchema,
} from "@/lib/shared/client-certification-contract";
export {
  supportBatchListSchema,
  supportBatchProgressSchema,
  supportBatchResultsSchema,
  supportLookupResultSchema,
  supportTransactionLookupSchema,
} from "@/lib/shared/support-contract";

export const healthSchema = z.object({ status: z.literal("ok") });
export const readySchema = z.object({ status: z.literal("ready"), database: z.enum(["pglite", "postgres"]) });

/** The query of `GET /api/audit` and `/api/audit/export.csv` as the contract names it. */
export const auditFilterQuerySchema = z.object({
  user: z.string().optional(),
  event: z.string().optional(),
  card: z.string().optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
  cursor: z.string().optional(),
  limit: z.number().int().min(1).max(500).optional(),
});

// Certification (docs/design.md §8): the answers of /api/certification/*.

// Support desk (docs/design.md §9): the answers of /api/support/*. Card numbers appear as last 4 only.

/**
 * The query of `GET /api/support/batches/{id}/results`, as lib/server/support/route-helpers.ts `resultsPageParams`
 * parses it (limit up to MAX_RESULTS_PAGE of lib/server/support/batches.ts, a server-only module).
 */
export const supportResultsQuerySchema = z.object({
  from: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(1000).default(100),
  show: z.enum(RESULT_FILTERS).optional(),
  /** 1 when the page is saved as a file (an attachment, and a `support_batch_results_downloaded` audit row). */
  download: z.enum(["0", "1"]).default("0"),
});

// Team runs (docs/design.md §4 `GET /api/runs`): inquiries kept on the server for the team.
export { teamRunListSchema, teamRunSchema } from "@/lib/server/inquiry/runs/api";

export const adminLiftedSchema = z.object({ lifted: z.string() });

export {
  deliveryListSchema,
  deliverySchema,
  monitorDeletedSchema,
  monitorDetailSchema,
  monitorSchema,
  monitorListSchema,
  monitorRunResultSchema,
} from "@/lib/shared/monitors-api";

/** `GET /api/starter-clients`: the catalogue of docs/design.md §12 (lib/server/starter-clients). */
export const starterClientListSchema = z.object({
  clients: z.array(
    z.object({
      language: z.string().meta({ examples: ["node"] }),
      title: z.string().meta({ examples: ["JavaScript (Node 20+)"] }),
      run: z.string().meta({ examples: ["node client.mjs <command>"] }),
    }),
  ),
});

/** A body that carries nothing: `{}` (the routes that act on their path alone). */
export const emptyInputSchema = z.object({}).strict();
