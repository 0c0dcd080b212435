/**
 * The certification routes' bodies and answers (DESIGN.md §4, §8), shared by the route handlers and the
 * runs page. Isomorphic: no secrets, no Node APIs.
 */
import { z } from "zod";
import { ENVIRONMENTS, OPERATIONS, environmentNameSchema } from "@/lib/shared/contracts";
import {
  MAX_EXPIRY_WAIT_SECONDS,
  runStateSchema,
  runSummarySchema,
  verdictCountsSchema,
  verdictSchema,
  type RunState,
} from "@/lib/shared/certification-contract";

export { MAX_EXPIRY_WAIT_SECONDS };

/** Largest evidence bundle the verify route reads (a full run's bundle is a few hundred KiB). */
export const MAX_BUNDLE_BYTES = 20 * 1024 * 1024;

export const startRunInputSchema = z
  .object({
    environment: z.enum(ENVIRONMENTS),
    /** Case ids (e.g. "TOK-01"); the whole catalogue when absent or empty. */
    cases: z
      .array(z.string().regex(/^[A-Za-z]{2,5}-\d{2}$/, "must be a case id such as TOK-01"))
      .max(100)
      .optional(),
    /** Production only: run Gift Balance Inquiry cases, which record real transactions. */
    allow_production_gift: z.boolean().default(false),
    /** Let AUTH-03 wait for a short-lived token to expire (up to MAX_EXPIRY_WAIT_SECONDS); else not applicable. */
    wait_for_token_expiry: z.boolean().default(false),
  })
  .strict()
  .refine((input) => !input.allow_production_gift || input.environment === "production", {
    path: ["allow_production_gift"],
    message: "applies only to production (Gift Balance Inquiry cases always run elsewhere)",
  });
export type StartRunInput = z.input<typeof startRunInputSchema>;

export const startRunResultSchema = z.object({ id: z.string() });
export type StartRunResponse = z.infer<typeof startRunResultSchema>;

/** A configured environment, and whether this server can certify it (else why not, in a sentence). */
const certifiableEnvironmentSchema = z.object({
  name: environmentNameSchema,
  certifiable: z.boolean(),
  reason: z.string().optional(),
});
export type CertifiableEnvironment = z.infer<typeof certifiableEnvironmentSchema>;

export const runListSchema = z.object({
  runs: z.array(runSummarySchema),
  /** What the start form offers: every configured environment, the ones that cannot be run with the reason. */
  environments: z.array(certifiableEnvironmentSchema),
});
export type RunListResponse = z.infer<typeof runListSchema>;

/** One exchange of a run, as the run view lists it (the full records are in the evidence bundle). */
const exchangeIndexEntrySchema = z.object({
  id: z.string(),
  operation: z.enum(OPERATIONS),
  status: z.number().int(),
  request_id: z.string().optional(),
});
export type ExchangeIndexEntry = z.infer<typeof exchangeIndexEntrySchema>;

/** GET /api/certification/runs/{id}: progress and per-case results, without the exchange bodies. */
export const runViewSchema = runStateSchema.omit({ exchanges: true }).extend({
  summary: verdictCountsSchema,
  exchanges: z.array(exchangeIndexEntrySchema),
  /** Whether the signed bundle can be downloaded (the run has ended). */
  evidence_ready: z.boolean(),
});
export type RunView = z.infer<typeof runViewSchema>;

const evidenceSignerSchema = z.object({
  kind: z.enum(["this_console", "trusted", "unknown"]),
  thumbprint: z.string(),
  /** The trusted key's name in EVIDENCE_TRUSTED_KEYS, when it has one. */
  name: z.string().optional(),
});
export type EvidenceSigner = z.infer<typeof evidenceSignerSchema>;

/** `POST /api/certification/verify`: what the bundle's manifest says is read as text, not trusted as typed. */
export const verifyResultSchema = z.object({
  ok: z.boolean(),
  problems: z.array(z.string()),
  checked: z.array(z.string()),
  /** The bundle was signed with this console's key (GET /api/certification/public-key). */
  signed_by_this_console: z.boolean(),
  /**
   * Who signed an intact bundle, by its key's RFC 7638 thumbprint: this console, a key EVIDENCE_TRUSTED_KEYS
   * names, or an unknown key (anyone can sign an edited bundle with a key of their own). Null when not intact.
   */
  signer: evidenceSignerSchema.nullable(),
  run: z
    .object({
      id: z.string().optional(),
      environment: z.string().optional(),
      status: z.string().optional(),
      operator: z.string().optional(),
      started_at: z.string().optional(),
      finished_at: z.string().nullable().optional(),
      summary: z.partialRecord(verdictSchema, z.number()).optional(),
    })
    .optional(),
});
export type VerifyResponse = z.infer<typeof verifyResultSchema>;

export function runView(run: RunState): RunView {
  const { exchanges, ...rest } = run;
  const summary = { pass: 0, fail: 0, observed: 0, not_applicable: 0 };
  for (const result of run.results) summary[result.verdict] += 1;
  return {
    ...rest,
    summary,
    exchanges: exchanges.map((record) => ({
      id: record.id,
      operation: record.operation,
      status: record.response.status,
      ...(record.request_id === undefined ? {} : { request_id: record.request_id }),
    })),
    evidence_ready: run.status !== "queued" && run.status !== "running",
  };
}
