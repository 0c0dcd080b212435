/**
 * The console's one PostgreSQL schema (docs/design.md §7). `drizzle-kit generate` turns changes here into a new
 * committed SQL migration under db/migrations; the migrations runner applies them at start.
 */
import "server-only";
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { sql } from "drizzle-orm";

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date", precision: 3 });

/** Append-only, hash-chained audit rows. `seq` is assigned from `audit_chain_head` inside the appending transaction. */
export const auditLog = pgTable(
  "audit_log",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey(),
    time: timestamptz("time").notNull(),
    userId: text("user_id"),
    roles: text("roles").array().notNull(),
    clientAddress: text("client_address"),
    event: text("event").notNull(),
    environment: text("environment"),
    operation: text("operation"),
    cardMasked: text("card_masked"),
    cardLast4: text("card_last4"),
    cardHmac: text("card_hmac"),
    upstreamStatus: smallint("upstream_status"),
    requestId: text("request_id"),
    outcome: text("outcome").notNull(),
    reason: text("reason"),
    details: jsonb("details").$type<Record<string, string | number | boolean | null>>(),
    prevHash: text("prev_hash").notNull(),
    rowHash: text("row_hash").notNull(),
  },
  (table) => [
    index("audit_log_user_seq").on(table.userId, table.seq),
    index("audit_log_event_seq").on(table.event, table.seq),
    index("audit_log_card_hmac_seq").on(table.cardHmac, table.seq),
    index("audit_log_card_last4_seq").on(table.cardLast4, table.seq),
    index("audit_log_time").on(table.time),
  ],
);

/**
 * One row (id 1): the last sequence number and row hash; locked FOR UPDATE by every append, so writers form one
 * chain. `keyedFrom` is the first row chained with the keyed hash (HMAC); rows before it were written with the
 * plain SHA-256 chain of earlier versions. Signed checkpoints repeat it, so moving it is caught.
 */
export const auditChainHead = pgTable("audit_chain_head", {
  id: smallint("id").primaryKey(),
  lastSeq: bigint("last_seq", { mode: "number" }).notNull(),
  lastHash: text("last_hash").notNull(),
  keyedFrom: bigint("keyed_from", { mode: "number" }).notNull().default(1),
});

/**
 * Signed checkpoints of the chain head (Ed25519, a flattened JWS), written by every instance now and then. The
 * same checkpoints also go to the server log and to a file in DATA_DIR, out of the database's reach: a
 * truncated or re-chained log no longer matches them.
 */
export const auditCheckpoints = pgTable(
  "audit_checkpoints",
  {
    instance: text("instance").notNull(),
    seq: bigint("seq", { mode: "number" }).notNull(),
    rowHash: text("row_hash").notNull(),
    at: timestamptz("at").notNull(),
    jws: jsonb("jws").$type<{ protected: string; payload: string; signature: string }>().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.instance, table.seq] }),
    index("audit_checkpoints_seq").on(table.seq),
  ],
);

/** Server-side sessions: a sign-out or an expiry recorded here holds on every instance. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    roles: text("roles").array().notNull(),
    createdAt: timestamptz("created_at").notNull(),
    lastSeenAt: timestamptz("last_seen_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    endedAt: timestamptz("ended_at"),
    endReason: text("end_reason"),
    /** AUTH_MODE=oidc: the provider's ID token, for RP-initiated logout's id_token_hint; cleared when it ends. */
    idToken: text("id_token"),
    clientAddress: text("client_address"),
  },
  (table) => [index("sessions_user").on(table.userId), index("sessions_expires").on(table.expiresAt)],
);

/**
 * Users an administrator keeps out until `until` (or until lifted): refused on every instance, whatever session
 * or proxy header they bring. One row per user; suspending again replaces it.
 */
export const userSuspensions = pgTable("user_suspensions", {
  userId: text("user_id").primaryKey(),
  until: timestamptz("until").notNull(),
  reason: text("reason"),
  suspendedBy: text("suspended_by").notNull(),
  suspendedAt: timestamptz("suspended_at").notNull(),
});

/** Fixed-window counters shared by every instance. */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: timestamptz("window_start").notNull(),
  count: integer("count").notNull(),
});

/** Raw bytes (the signed evidence zip); both drivers hand back a Uint8Array (a Buffer under postgres-js). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value) => value,
  fromDriver: (value) => new Uint8Array(value),
});

/**
 * Certification runs (docs/design.md §8): the run as the runner keeps it, rewritten after every case, and the
 * signed evidence zip, stored once when the run ends so that every later download is the same bundle.
 * `heartbeatAt` moves while the owning process runs it; a run whose heartbeat went stale is `interrupted`.
 */
export const certificationRuns = pgTable(
  "certification_runs",
  {
    id: text("id").primaryKey(),
    environment: text("environment").notNull(),
    status: text("status").notNull(),
    operatorId: text("operator_id").notNull(),
    operatorName: text("operator_name").notNull(),
    clientId: text("client_id").notNull(),
    allowProductionGift: boolean("allow_production_gift").notNull(),
    caseIds: text("case_ids").array().notNull(),
    total: integer("total").notNull(),
    done: integer("done").notNull(),
    startedAt: timestamptz("started_at").notNull(),
    finishedAt: timestamptz("finished_at"),
    heartbeatAt: timestamptz("heartbeat_at").notNull(),
    /** The RunState without results and exchanges (environment addresses, tokens). */
    state: jsonb("state").$type<Record<string, unknown>>().notNull(),
    /** Case id and verdict of every finished case, in order: what the list and a comparison need. */
    verdicts: jsonb("verdicts").$type<{ id: string; verdict: string }[]>().notNull(),
    results: jsonb("results").$type<unknown[]>().notNull(),
    exchanges: jsonb("exchanges").$type<unknown[]>().notNull(),
    bundle: bytea("bundle"),
    bundleFileName: text("bundle_file_name"),
  },
  (table) => [
    index("certification_runs_started").on(table.startedAt),
    index("certification_runs_status").on(table.status),
  ],
);

/**
 * Support desk batches (docs/design.md §9): one row per batch, kept 24 hours. `runner_lease_until` is the lease of the
 * instance running it; when it lapses (the instance died) any instance may take the batch over. `credentials` is
 * how the cards are looked up (`server`, `demo`, or the user's own, sealed: see lib/server/support/card-vault.ts) and is
 * cleared when the batch ends.
 */
export const supportBatches = pgTable(
  "support_batches",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    roles: text("roles").array().notNull(),
    clientAddress: text("client_address"),
    environment: text("environment").notNull(),
    credentials: text("credentials"),
    reason: text("reason"),
    status: text("status").notNull(),
    total: integer("total").notNull(),
    badLines: jsonb("bad_lines")
      .$type<{ count: number; lines: { line: number; message: string; extra?: string[] }[] }>()
      .notNull(),
    /** The uploaded CSV's other column names, kept beside the results; null without them. */
    columns: jsonb("columns").$type<string[]>(),
    createdAt: timestamptz("created_at").notNull(),
    startedAt: timestamptz("started_at"),
    finishedAt: timestamptz("finished_at"),
    expiresAt: timestamptz("expires_at").notNull(),
    runnerLeaseUntil: timestamptz("runner_lease_until"),
  },
  (table) => [
    index("support_batches_user").on(table.userId, table.createdAt),
    index("support_batches_expires").on(table.expiresAt),
  ],
);

/**
 * One row per card of a batch, in input order (`position`). The card number is kept only sealed, and only
 * until its lookup ends; the results keep its last 4 and keyed hash. A card is claimed (`claimed_at`, a lease)
 * with `FOR UPDATE SKIP LOCKED`, so that any number of workers and instances share a batch without a card
 * running twice at once; `not_before` defers a card the upstream answered 429 (Retry-After).
 */
export const supportBatchCards = pgTable(
  "support_batch_cards",
  {
    batchId: text("batch_id")
      .notNull()
      .references(() => supportBatches.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    line: integer("line").notNull(),
    last4: text("last4").notNull(),
    cardHmac: text("card_hmac").notNull(),
    cardSealed: text("card_sealed"),
    /** The line's values of the batch's `columns`, bounded and masked. */
    extra: jsonb("extra").$type<string[]>(),
    state: text("state").notNull(),
    attempts: integer("attempts").notNull(),
    claimedAt: timestamptz("claimed_at"),
    notBefore: timestamptz("not_before"),
    outcome: text("outcome"),
    balances: jsonb("balances").$type<Record<string, string>>(),
    upstreamStatus: smallint("upstream_status"),
    error: text("error"),
    finishedAt: timestamptz("finished_at"),
  },
  (table) => [
    primaryKey({ columns: [table.batchId, table.position] }),
    index("support_batch_cards_state").on(table.batchId, table.state, table.position),
  ],
);

// ---------- integration certification (docs/design.md §11) ----------

/**
 * A certification of an integrator's client application: its own sandbox client (the secret kept only as a
 * SHA-256), the step armed now and the one-shot behaviours it armed (consumed atomically, so N instances agree),
 * and the verdicts once judged.
 */
export const clientCertifications = pgTable(
  "client_certifications",
  {
    id: text("id").primaryKey(),
    clientId: text("client_id").notNull().unique(),
    secretSha256: text("secret_sha256").notNull(),
    status: text("status").notNull(),
    environment: text("environment").notNull(),
    authUrl: text("auth_url").notNull(),
    baseUrl: text("base_url").notNull(),
    operatorId: text("operator_id").notNull(),
    operator: text("operator").notNull(),
    currentStep: text("current_step"),
    steps: jsonb("steps").$type<Record<string, { armed_at?: string; ended_at?: string }>>().notNull(),
    revokedBefore: timestamptz("revoked_before"),
    delayArmed: boolean("delay_armed").notNull(),
    rateLimitArmed: boolean("rate_limit_armed").notNull(),
    startedAt: timestamptz("started_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    finishedAt: timestamptz("finished_at"),
    checks: jsonb("checks").$type<unknown[]>(),
    /** The client secret sealed (AES-256-GCM): the recorded calls are searched for its encoded forms. */
    secretSealed: text("secret_sealed"),
    /** Calls kept so far (each call's `seq`), and those past the bound that were counted and dropped. */
    callsKept: integer("calls_kept").notNull().default(0),
    callsDropped: integer("calls_dropped").notNull().default(0),
    /** Token requests refused (unknown or wrong secret): counted only, never kept. */
    refusedTokenRequests: integer("refused_token_requests").notNull().default(0),
    lastRefusedAt: timestamptz("last_refused_at"),
    /** `steps` (docs/design.md §11's five steps) or `faults` (fault plans, docs/design.md §14). */
    mode: text("mode").notNull().default("steps"),
    /** The application's timeout (CARD_API_TIMEOUT_MS) that late and dripping answers are measured against. */
    clientTimeoutMs: integer("client_timeout_ms").notNull().default(3000),
    /** The fault plan armed now, if any. */
    currentPlanId: text("current_plan_id"),
  },
  (table) => [
    index("client_certifications_started").on(table.startedAt),
    index("client_certifications_operator").on(table.operatorId, table.startedAt),
  ],
);

/** Every call the sandbox saw from a certification's client or its tokens, masked and redacted, in arrival order. */
export const clientCertificationCalls = pgTable(
  "client_certification_calls",
  {
    id: text("id").primaryKey(),
    certificationId: text("certification_id")
      .notNull()
      .references(() => clientCertifications.id, { onDelete: "cascade" }),
    /** 1, 2, … per certification in the order kept: the page asks for the calls after the last it has. */
    seq: integer("seq").notNull().default(0),
    step: text("step"),
    startedAt: timestamptz("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    operation: text("operation"),
    status: smallint("status").notNull(),
    requestId: text("request_id"),
    record: jsonb("record").notNull(),
    facts: jsonb("facts").notNull(),
    /** The fault plan armed when the call came, if any. */
    planId: text("plan_id"),
  },
  (table) => [
    index("client_certification_calls_order").on(table.certificationId, table.startedAt),
    index("client_certification_calls_plan").on(table.planId),
    index("client_certification_calls_seq").on(table.certificationId, table.seq),
  ],
);

/** The fault plans of a certification in `faults` mode, in the order armed; calls counted per kind in `counts`. */
export const clientCertificationPlans = pgTable(
  "client_certification_plans",
  {
    id: text("id").primaryKey(),
    certificationId: text("certification_id")
      .notNull()
      .references(() => clientCertifications.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    code: text("code").notNull(),
    faults: jsonb("faults").notNull(),
    counts: jsonb("counts").$type<Record<string, number>>().notNull().default({}),
    armedAt: timestamptz("armed_at").notNull(),
    endedAt: timestamptz("ended_at"),
    exitCode: integer("exit_code"),
    result: jsonb("result"),
  },
  (table) => [index("client_certification_plans_order").on(table.certificationId, table.number)],
);

/** The team's inquiry runs, kept masked and redacted as the exchange record is (RUNS_RETENTION_DAYS). */
export const inquiryRuns = pgTable(
  "inquiry_runs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    userName: text("user_name").notNull(),
    environment: text("environment").notNull(),
    operation: text("operation").notNull(),
    requestId: text("request_id"),
    /** The card as the record shows it (`first6******last4`). */
    card: text("card"),
    status: smallint("status").notNull(),
    startedAt: timestamptz("started_at").notNull(),
    recordedAt: timestamptz("recorded_at").notNull(),
    exchange: jsonb("exchange").$type<ExchangeRecord>().notNull(),
  },
  (table) => [
    index("inquiry_runs_recorded_at").on(table.recordedAt),
    index("inquiry_runs_request_id").on(table.requestId),
    index("inquiry_runs_user_id").on(table.userId),
  ],
);

// ---------- monitors (docs/design.md §13) ----------

/**
 * A certification on a schedule. `next_run_at` is claimed by an atomic UPDATE (moved one period on, the old value
 * kept in `scheduled_for`), so one instance of many runs each due run; `busy_until` is the lease of the instance
 * running one of its runs (renewed while it runs), so a second run of the monitor is refused meanwhile.
 */
export const monitors = pgTable(
  "monitors",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    environment: text("environment").notNull(),
    /** null: every case of the catalogue. */
    caseIds: text("case_ids").array(),
    everyMinutes: integer("every_minutes").notNull(),
    allowProductionGift: boolean("allow_production_gift").notNull(),
    paused: boolean("paused").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamptz("created_at").notNull(),
    nextRunAt: timestamptz("next_run_at").notNull(),
    scheduledFor: timestamptz("scheduled_for"),
    busyUntil: timestamptz("busy_until"),
    /** `passing`, `failing` or `unknown` (no finished run yet). */
    state: text("state").notNull(),
    /** Consecutive failing runs before the state turns `failing` (and alerts): 1 to 10. */
    alertAfterFailures: integer("alert_after_failures").notNull().default(1),
    /** Failing runs in a row up to now; a passing run sets it back to 0. */
    failingRuns: integer("failing_runs").notNull().default(0),
  },
  (table) => [
    index("monitors_next_run").on(table.nextRunAt),
    index("monitors_created_by").on(table.createdBy),
  ],
);

/** One row per run of a monitor: the docs/design.md §8 run it started, whether it was scheduled or late, and its outcome. */
export const monitorRuns = pgTable(
  "monitor_runs",
  {
    runId: text("run_id").primaryKey(),
    monitorId: text("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    scheduled: boolean("scheduled").notNull(),
    late: boolean("late").notNull(),
    startedAt: timestamptz("started_at").notNull(),
    finishedAt: timestamptz("finished_at"),
    /** `running`, then the docs/design.md §8 run's end status (`done`, `interrupted`, `cancelled`) or `broken` (never started). */
    status: text("status").notNull(),
    passed: integer("passed").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    failedCases: text("failed_cases")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (table) => [index("monitor_runs_monitor").on(table.monitorId, table.startedAt)],
);

/** One attempt to deliver an alert, as the deliveries list shows it. */
export interface DeliveryAttempt {
  at: string;
  /** The receiver's HTTP status; null when it did not answer. */
  status: number | null;
  ms: number;
  error?: string;
}

/**
 * Alerts to ALERT_WEBHOOK_URL, a queue apart from the schedule: the exact body signed, its `webhook-id` (the row's
 * id, the same on every retry), and how its delivery went. One row per monitor and change of state (the unique
 * index); `claim` is the instance attempt now holding it, until `claimed_until`.
 */
export const alertDeliveries = pgTable(
  "alert_deliveries",
  {
    id: text("id").primaryKey(),
    /** null: a test alert sent without naming a monitor. */
    monitorId: text("monitor_id").references(() => monitors.id, { onDelete: "cascade" }),
    /** The run whose outcome changed the state; null for a test alert. */
    runId: text("run_id"),
    /** `monitor.failing`, `monitor.recovered` or `monitor.test`. */
    type: text("type").notNull(),
    body: text("body").notNull(),
    /** `pending`, `delivered` or `failed` (given up after an hour of retries). */
    state: text("state").notNull(),
    /** Attempts since `retry_from` (a redelivery starts the count again); every attempt is in `attempt_log`. */
    attempts: integer("attempts").notNull(),
    attemptLog: jsonb("attempt_log").$type<DeliveryAttempt[]>().notNull().default([]),
    createdAt: timestamptz("created_at").notNull(),
    /** When the retries' hour began: made, or redelivered. */
    retryFrom: timestamptz("retry_from").notNull(),
    nextAttemptAt: timestamptz("next_attempt_at"),
    claim: text("claim"),
    claimedUntil: timestamptz("claimed_until"),
    lastError: text("last_error"),
  },
  (table) => [
    index("alert_deliveries_due").on(table.state, table.nextAttemptAt),
    index("alert_deliveries_monitor").on(table.monitorId, table.createdAt),
    uniqueIndex("alert_deliveries_change").on(table.monitorId, table.runId, table.type),
  ],
);
