/**
 * Integration certification of a client application (docs/design.md §11): its steps, its checks and the shapes the
 * console's routes answer with. Isomorphic (the page renders these); holds no secret.
 */
import { z } from "zod";
import { exchangeRequestSchema, exchangeResponseSchema, isoTime } from "./contracts";
import { CALL_KINDS, FAULT_CHECK_IDS, parsePlanCode } from "./fault-families";

const CLIENT_STEP_IDS = ["tokens", "declined", "revoked", "timeout", "rate_limited"] as const;
export type ClientStepId = (typeof CLIENT_STEP_IDS)[number];

const CLIENT_CHECK_IDS = [
  "CLI-TOKEN-REUSE",
  "CLI-RENEW-401",
  "CLI-REQUEST-ID-UNIQUE",
  "CLI-TIMEOUT-LOOKUP",
  "CLI-DECLINE-NO-RETRY",
  "CLI-RETRY-AFTER",
  "CLI-SECRET-ONLY-AT-TOKEN",
  "CLI-WELL-FORMED",
] as const;
export type ClientCheckId = (typeof CLIENT_CHECK_IDS)[number];

const clientCertificationStatusSchema = z.enum(["waiting", "running", "done", "expired"]);
export type ClientCertificationStatus = z.infer<typeof clientCertificationStatusSchema>;
const clientVerdictSchema = z.enum(["pass", "fail", "not_observed"]);
export type ClientVerdict = z.infer<typeof clientVerdictSchema>;

export const ACTIVE_CARD = "6006491000000001";
export const INACTIVE_CARD = "6006491000000027";

export type ClientStepInfo = Pick<ClientStepState, "id" | "title" | "instructions">;

export const CLIENT_STEPS: readonly ClientStepInfo[] = [
  {
    id: "tokens",
    title: "Tokens",
    instructions: `Request a token, then make at least 3 Balance or Gift Balance Inquiries for ${ACTIVE_CARD}.`,
  },
  {
    id: "declined",
    title: "Declined inquiry",
    instructions: `Make one Gift Balance Inquiry for ${INACTIVE_CARD}: it is answered 201, declined.`,
  },
  {
    id: "revoked",
    title: "Revoked token",
    instructions: `Every token of this client is revoked now. Make one Gift Balance Inquiry for ${ACTIVE_CARD}.`,
  },
  {
    id: "timeout",
    title: "No answer in time",
    instructions: `Make one Gift Balance Inquiry for ${ACTIVE_CARD}: it is recorded, but answered only after 30 s. Deal with getting no answer in time.`,
  },
  {
    id: "rate_limited",
    title: "Rate limited",
    instructions: "Make two Balance Inquiries: the first is answered 429 with Retry-After: 2.",
  },
];

export type ClientCheckInfo = Pick<ClientCheckResult, "id" | "title" | "spec">;

export const CLIENT_CHECKS: readonly ClientCheckInfo[] = [
  { id: "CLI-TOKEN-REUSE", title: "Caches and reuses the token", spec: "API specification §5.7" },
  {
    id: "CLI-RENEW-401",
    title: "On a 401, renews once and retries the same call",
    spec: "API specification §5.8",
  },
  {
    id: "CLI-REQUEST-ID-UNIQUE",
    title: "A unique X-Request-Id per Gift Balance Inquiry",
    spec: "API specification §8, §4.3",
  },
  {
    id: "CLI-TIMEOUT-LOOKUP",
    title: "After no answer, finds the transaction by its Request Id",
    spec: "API specification §4.3.3",
  },
  {
    id: "CLI-DECLINE-NO-RETRY",
    title: "A declined inquiry is not sent again",
    spec: "API specification §4.3.4",
  },
  { id: "CLI-RETRY-AFTER", title: "Honours Retry-After", spec: "API specification §7" },
  {
    id: "CLI-SECRET-ONLY-AT-TOKEN",
    title: "The secret goes to the token endpoint only",
    spec: "API specification §5.9",
  },
  { id: "CLI-WELL-FORMED", title: "Every call well formed", spec: "API specification §4.1–4.4" },
];

const ALL_CHECK_IDS = [...CLIENT_CHECK_IDS, ...FAULT_CHECK_IDS] as const;
export type AnyClientCheckId = (typeof ALL_CHECK_IDS)[number];

const clientCheckResultSchema = z.object({
  id: z.enum(ALL_CHECK_IDS),
  title: z.string(),
  spec: z.string(),
  /** Where the duty comes from: "API specification §N" or HTTP practice (RFC 9110 …). */
  basis: z.string().optional(),
  verdict: clientVerdictSchema,
  expected: z.string(),
  observed: z.string(),
  exchange_ids: z.array(z.string()),
});
export type ClientCheckResult = z.infer<typeof clientCheckResultSchema>;

const clientStepStateSchema = z.object({
  id: z.enum(CLIENT_STEP_IDS),
  title: z.string(),
  instructions: z.string(),
  /** `done` once the calls the step asks for were seen; `ended` when it ended without them. */
  status: z.enum(["pending", "armed", "done", "ended"]),
  armed_at: isoTime.optional(),
  ended_at: isoTime.optional(),
});
type ClientStepState = z.infer<typeof clientStepStateSchema>;

/** One call of the live log: masked and redacted as every exchange. */
const clientCallSchema = z.object({
  id: z.string(),
  step: z.enum(CLIENT_STEP_IDS).nullable(),
  started_at: isoTime,
  duration_ms: z.number(),
  operation: z.string().nullable(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  request_id: z.string().nullable(),
  /** What the sandbox did beyond answering: revoked token, 429, held answer, client hung up. */
  behaviour: z.string().nullable(),
  /**
   * As the application sent it: its own headers only, and the body as its text, character for character
   * (`body_is_text`), with the secret redacted and card numbers masked in place. Calls kept before then hold
   * the body parsed.
   */
  request: exchangeRequestSchema,
  response: exchangeResponseSchema.pick({ status: true, headers: true, body: true }),
  /** 1, 2, … in the order the calls were kept (`?calls_after=` pages on it). */
  seq: z.number().int().optional(),
  /** What was cut to keep the call bounded ("request body", "request headers", …). */
  truncated: z.array(z.string()).optional(),
  /** In `faults` mode: the plan armed when the call came, the call's number among its kind, its fault. */
  plan_id: z.string().nullable().optional(),
  kind_seq: z.number().int().nullable().optional(),
  fault: z.string().nullable().optional(),
});
export type ClientCallRecord = z.infer<typeof clientCallSchema>;

/** What the call log holds and what it did not keep. */
const clientCallCountsSchema = z.object({
  /** Calls kept (the last one's `seq`). */
  kept: z.number().int(),
  /** Calls past `max_kept`: counted, not kept. */
  dropped: z.number().int(),
  max_kept: z.number().int(),
  /** Token requests with this client_id refused (unknown or wrong secret): counted only, never kept. */
  refused_token_requests: z.number().int(),
  last_refused_at: isoTime.nullable(),
});

const certificationModeSchema = z.enum(["steps", "faults"]);

/** One fault of an ended plan: whether the call it names came (and so got the fault), and which call that was. */
const planFaultSchema = z.object({
  fault: z.string(),
  /** The `seq` of the call it hit in the certification's call log; null when that call never came. */
  call_seq: z.number().int().nullable(),
  exercised: z.boolean(),
});

export const planResultSchema = z.object({
  plan_id: z.string(),
  number: z.number().int(),
  code: z.string(),
  armed_at: isoTime,
  ended_at: isoTime.nullable(),
  exit_code: z.number().int().nullable(),
  /** The `seq` of each call made while the plan was armed. */
  calls: z.array(z.number().int()),
  /** How many calls of each kind (token, gift, balance, lookup) came while it was armed. */
  counts: z.record(z.string(), z.number().int()),
  faults: z.array(planFaultSchema),
  checks: z.array(clientCheckResultSchema),
  /** No check failed (null while the plan is armed). */
  passed: z.boolean().nullable(),
  /** Set by `certify-client` on the smallest failing plans it shrank to. */
  reproducer_of: z.string().nullable(),
});
export type PlanResult = z.infer<typeof planResultSchema>;

export const clientCertificationViewSchema = z.object({
  id: z.string(),
  status: clientCertificationStatusSchema,
  mode: certificationModeSchema,
  client_timeout_ms: z.number().int(),
  /** In `faults` mode: every plan armed so far, in order (the baseline's code is ""). */
  plans: z.array(planResultSchema),
  environment: z.literal("embedded"),
  client_id: z.string(),
  auth_url: z.string(),
  base_url: z.string(),
  operator: z.string(),
  started_at: isoTime,
  expires_at: isoTime,
  finished_at: isoTime.nullable(),
  current_step: z.enum(CLIENT_STEP_IDS).nullable(),
  steps: z.array(clientStepStateSchema),
  checks: z.array(clientCheckResultSchema),
  /** The page of the call log asked for (`?calls_after=<seq>&limit=`; every call kept when not asked). */
  exchanges: z.array(clientCallSchema),
  calls: clientCallCountsSchema,
});
export type ClientCertificationView = z.infer<typeof clientCertificationViewSchema>;

/** The answer to start: the one time the client's secret leaves the server. */
export const startedClientCertificationSchema = clientCertificationViewSchema.extend({
  client_secret: z.string(),
});
export type StartedClientCertification = z.infer<typeof startedClientCertificationSchema>;

const clientCertificationSummarySchema = z.object({
  id: z.string(),
  status: clientCertificationStatusSchema,
  client_id: z.string(),
  operator: z.string(),
  started_at: isoTime,
  finished_at: isoTime.nullable(),
  verdicts: z.array(z.object({ id: z.enum(ALL_CHECK_IDS), verdict: clientVerdictSchema })),
});
export type ClientCertificationSummary = z.infer<typeof clientCertificationSummarySchema>;

export const clientCertificationListSchema = z.object({
  certifications: z.array(clientCertificationSummarySchema),
});

export const startClientCertificationSchema = z
  .object({
    environment: z.literal("embedded"),
    mode: certificationModeSchema.optional(),
    /** The application's CARD_API_TIMEOUT_MS: late and dripping answers are measured against it. */
    timeout_ms: z.number().int().min(200).max(60_000).optional(),
  })
  .strict();

export const armPlanSchema = z
  .object({
    code: z
      .string()
      .max(2000)
      .superRefine((code, context) => {
        const parsed = parsePlanCode(code);
        if (!parsed.ok) context.addIssue({ code: "custom", message: parsed.error });
      }),
    /** Marks the plan as the smallest failing plan shrunk from the plan with this code. */
    reproducer_of: z.string().max(2000).optional(),
  })
  .strict();
export const armedPlanSchema = z.object({ plan_id: z.string() });
export const endPlanSchema = z.object({ exit_code: z.number().int().min(-1).max(255).optional() }).strict();

export const faultVocabularySchema = z.object({
  families: z.array(
    z.object({
      id: z.string(),
      applies_to: z.array(z.enum(CALL_KINDS)),
      recorded: z.boolean(),
      description: z.string(),
      duties: z.array(z.string()),
    }),
  ),
});
export const planIdSchema = z.string().regex(/^[0-9a-f-]{36}$/, "must be a plan id");
export const clientStepIdSchema = z.enum(CLIENT_STEP_IDS);
/** `GET /api/client-certifications/{id}?calls_after=<seq>&limit=<n>`: a page of the call log. */
export const clientCallPageSchema = z
  .object({
    calls_after: z.coerce.number().int().min(0).max(1_000_000).optional(),
    limit: z.coerce.number().int().min(0).max(500).optional(),
  })
  .strict();

export const clientCertificationIdSchema = z.string().regex(/^[0-9a-f-]{36}$/, "must be a certification id");
