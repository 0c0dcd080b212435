/**
 * The certification routes' bodies and answers (docs/design.md §4, §8), shared by the route handlers and the
 * runs page. Isomorphic: no secrets, no Node APIs.
 */
import { z } from "zod";
import { ENVIRONMENTS } from "@/lib/shared/contracts";
import { MAX_EXPIRY_WAIT_SECONDS, type RunState } from "@/lib/shared/certification-contract";
import type {
  certifiableEnvironmentSchema,
  evidenceSignerSchema,
  exchangeIndexEntrySchema,
  runListSchema,
  runViewSchema,
  startRunResultSchema,
  verifyResultSchema,
} from "@/lib/shared/certification-schemas";

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

export type StartRunResponse = z.infer<typeof startRunResultSchema>;
export type CertifiableEnvironment = z.infer<typeof certifiableEnvironmentSchema>;
export type RunListResponse = z.infer<typeof runListSchema>;
export type ExchangeIndexEntry = z.infer<typeof exchangeIndexEntrySchema>;
export type RunView = z.infer<typeof runViewSchema>;
export type EvidenceSigner = z.infer<typeof evidenceSignerSchema>;
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
