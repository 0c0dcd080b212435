/**
 * zod schemas of the console's response bodies (DESIGN.md §4) that the OpenAPI document describes. The shapes a
 * route builds and a page reads are lib/shared's (their types are inferred from the schema, so the document
 * cannot drift from the code) and re-exported here; the rest are the answers only this document names.
 */
import { z } from "zod";
import { environmentNameSchema, exchangeRecordSchema, isoTime } from "@/lib/shared/contracts";
import { RESULT_FILTERS } from "@/lib/shared/support-contract";

export {
  errorBodySchema,
  exchangeRecordSchema,
  inquiryAnswerSchema,
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
export { auditPageSchema, auditUserListSchema } from "@/lib/shared/audit-contract";
export {
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

const environmentName = environmentNameSchema;

export const healthSchema = z.object({ status: z.literal("ok") });
export const readySchema = z.object({ status: z.literal("ready"), database: z.enum(["pglite", "postgres"]) });

// What signing out answers: the session has ended and where the browser goes next.
export const logoutResultSchema = z.object({ signed_out: z.literal(true), redirect: z.string() });

/** What a verification checked: signed checkpoints of the chain head, the keyed chain's first row, up to when. */
const auditVerifyCoverage = {
  checkpoints: z.number().int(),
  last_checkpoint: z.object({ seq: z.number().int(), at: isoTime, instance: z.string() }).nullable(),
  keyed_from: z.number().int(),
  through: isoTime.nullable(),
  verified_at: isoTime,
  walked_from: z.number().int(),
  started_at_checkpoint: z.object({ seq: z.number().int(), at: isoTime, instance: z.string() }).nullable(),
};

export const auditVerifySchema = z.union([
  z.object({ ok: z.literal(true), rows: z.number().int(), ...auditVerifyCoverage }),
  z.object({
    ok: z.literal(false),
    rows: z.number().int(),
    first_bad_row: z.number().int(),
    reason: z.string(),
    ...auditVerifyCoverage,
  }),
]);

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

// Certification (DESIGN.md §8): the answers of /api/certification/*.

/** `GET /api/certification/public-key`: the Ed25519 public JWK (lib/server/certification/signing-key.ts). */
export const publicJwkSchema = z.object({
  kty: z.literal("OKP"),
  crv: z.literal("Ed25519"),
  x: z.string(),
  alg: z.literal("EdDSA"),
  use: z.literal("sig"),
  kid: z.string(),
});

// Support desk (DESIGN.md §9): the answers of /api/support/*. Card numbers appear as last 4 only.

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

// Team runs (DESIGN.md §4 `GET /api/runs`): inquiries kept on the server for the team.

const teamRunSummarySchema = z.object({
  id: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  environment: environmentName,
  operation: z.enum(["gift_balance_inquiry", "balance_inquiry"]),
  request_id: z.string().nullable(),
  card: z.string().nullable(),
  status: z.number().int(),
  started_at: isoTime,
});

export const teamRunListSchema = z.object({
  runs: z.array(teamRunSummarySchema),
  retention_days: z.number().int(),
});

export const teamRunSchema = teamRunSummarySchema.extend({ exchange: exchangeRecordSchema });

export const adminLiftedSchema = z.object({ lifted: z.string() });

export {
  monitorDeletedSchema,
  monitorDetailSchema,
  monitorSchema,
  monitorListSchema,
  monitorRunResultSchema,
} from "@/lib/shared/monitors-api";

/** `GET /api/starter-clients`: the catalogue of DESIGN.md §12 (lib/server/starter-clients). */
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
