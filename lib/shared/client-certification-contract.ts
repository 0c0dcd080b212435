/**
 * Integration certification of a client application (DESIGN.md §11): its steps, its checks and the shapes the
 * console's routes answer with. Isomorphic (the page renders these); holds no secret.
 */
import { z } from "zod";

export const CLIENT_STEP_IDS = ["tokens", "declined", "revoked", "timeout", "rate_limited"] as const;
export type ClientStepId = (typeof CLIENT_STEP_IDS)[number];

export const CLIENT_CHECK_IDS = [
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

export type ClientCertificationStatus = "waiting" | "running" | "done" | "expired";
export type ClientStepStatus = "pending" | "armed" | "ended";
export type ClientVerdict = "pass" | "fail" | "not_observed";

export const ACTIVE_CARD = "6006491000000001";
export const INACTIVE_CARD = "6006491000000027";

export interface ClientStepInfo {
  id: ClientStepId;
  title: string;
  instructions: string;
}

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

export interface ClientCheckInfo {
  id: ClientCheckId;
  title: string;
  spec: string;
}

export const CLIENT_CHECKS: readonly ClientCheckInfo[] = [
  { id: "CLI-TOKEN-REUSE", title: "Caches and reuses the token", spec: "§5.7" },
  { id: "CLI-RENEW-401", title: "On a 401, renews once and retries the same call", spec: "§5.8" },
  { id: "CLI-REQUEST-ID-UNIQUE", title: "A unique X-Request-Id per Gift Balance Inquiry", spec: "§8, §4.3" },
  {
    id: "CLI-TIMEOUT-LOOKUP",
    title: "After no answer, finds the transaction by its Request Id",
    spec: "§4.3.3",
  },
  { id: "CLI-DECLINE-NO-RETRY", title: "A declined inquiry is not sent again", spec: "§4.3.4" },
  { id: "CLI-RETRY-AFTER", title: "Honours Retry-After", spec: "§7" },
  { id: "CLI-SECRET-ONLY-AT-TOKEN", title: "The secret goes to the token endpoint only", spec: "§5.9" },
  { id: "CLI-WELL-FORMED", title: "Every call well formed", spec: "§4.1–4.4" },
];

export interface ClientCheckResult extends ClientCheckInfo {
  verdict: ClientVerdict;
  expected: string;
  observed: string;
  exchange_ids: string[];
}

export interface ClientStepState extends ClientStepInfo {
  status: ClientStepStatus;
  armed_at?: string;
  ended_at?: string;
}

/** One call of the live log: masked and redacted as every exchange. */
export interface ClientCallRecord {
  id: string;
  /** 1, 2, … in the order the calls were kept (`?calls_after=` pages on it). */
  seq?: number;
  step: ClientStepId | null;
  started_at: string;
  duration_ms: number;
  operation: string | null;
  method: string;
  path: string;
  status: number;
  request_id: string | null;
  /** What the sandbox did beyond answering: revoked token, 429, held answer, client hung up. */
  behaviour: string | null;
  /**
   * As the application sent it: its own headers only, and the body as its text, character for character
   * (`body_is_text`), with the secret redacted and card numbers masked in place. Calls kept before then hold
   * the body parsed.
   */
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: unknown;
    body_is_text?: boolean;
  };
  response: { status: number; headers: Record<string, string>; body: unknown };
  /** What was cut to keep the call bounded ("request body", "request headers", …). */
  truncated?: string[];
}

export interface ClientCertificationView {
  id: string;
  status: ClientCertificationStatus;
  environment: "embedded";
  client_id: string;
  auth_url: string;
  base_url: string;
  operator: string;
  started_at: string;
  expires_at: string;
  finished_at: string | null;
  current_step: ClientStepId | null;
  steps: ClientStepState[];
  checks: ClientCheckResult[];
  /** The page of the call log asked for (`?calls_after=<seq>&limit=`; every call kept when not asked). */
  exchanges: ClientCallRecord[];
  calls: ClientCallCounts;
}

/** What the call log holds and what it did not keep. */
export interface ClientCallCounts {
  /** Calls kept (the last one's `seq`). */
  kept: number;
  /** Calls past `max_kept`: counted, not kept. */
  dropped: number;
  max_kept: number;
  /** Token requests with this client_id refused (unknown or wrong secret): counted only, never kept. */
  refused_token_requests: number;
  last_refused_at: string | null;
}

/** The answer to start: the one time the client's secret leaves the server. */
export interface StartedClientCertification extends ClientCertificationView {
  client_secret: string;
}

export interface ClientCertificationSummary {
  id: string;
  status: ClientCertificationStatus;
  client_id: string;
  operator: string;
  started_at: string;
  finished_at: string | null;
  verdicts: { id: ClientCheckId; verdict: ClientVerdict }[];
}

export const startClientCertificationSchema = z.object({ environment: z.literal("embedded") }).strict();
export const clientStepIdSchema = z.enum(CLIENT_STEP_IDS);
/** `GET /api/client-certifications/{id}?calls_after=<seq>&limit=<n>`: a page of the call log. */
export const clientCallPageSchema = z
  .object({
    calls_after: z.coerce.number().int().min(0).max(1_000_000).optional(),
    limit: z.coerce.number().int().min(0).max(500).optional(),
  })
  .strict();

export const clientCertificationIdSchema = z.string().regex(/^[0-9a-f-]{36}$/, "must be a certification id");

/** The .env lines an application reads its configuration from. */
export function envSnippet(
  view: { auth_url: string; base_url: string; client_id: string },
  secret: string,
): string {
  return [
    `CARD_API_AUTH_URL=${view.auth_url}`,
    `CARD_API_BASE_URL=${view.base_url}`,
    `CARD_API_CLIENT_ID=${view.client_id}`,
    `CARD_API_CLIENT_SECRET=${secret}`,
    "",
  ].join("\n");
}
