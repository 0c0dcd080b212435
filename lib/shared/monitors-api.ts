/**
 * The monitor routes' bodies and answers (docs/design.md §13), shared by the route handlers, the OpenAPI document and
 * the /monitors page. Isomorphic: no secrets, no Node APIs.
 */
import { z } from "zod";
import { ENVIRONMENTS, type EnvironmentName } from "@/lib/shared/contracts";
import { MAX_ALERT_AFTER_FAILURES, MAX_EVERY_MINUTES } from "./monitor-rules";

const caseIds = z
  .array(z.string().regex(/^[A-Za-z]{2,5}-\d{2}$/, "must be a case id such as TOK-01"))
  .max(100);
const name = z.string().trim().min(1, "must not be empty").max(80, "must be at most 80 characters");
const everyMinutes = z
  .number()
  .int("must be a whole number of minutes")
  .min(1, "must be at least 1")
  .max(MAX_EVERY_MINUTES, `must be at most ${MAX_EVERY_MINUTES} (a week)`);
/** Consecutive failing runs before the monitor is failing and alerts: a flaky case does not page anyone. */
const alertAfterFailures = z
  .number()
  .int("must be a whole number of runs")
  .min(1, "must be at least 1")
  .max(MAX_ALERT_AFTER_FAILURES, `must be at most ${MAX_ALERT_AFTER_FAILURES}`);

export const createMonitorSchema = z
  .object({
    name,
    environment: z.enum(ENVIRONMENTS),
    /** Case ids; the whole catalogue when absent or empty. */
    cases: caseIds.optional(),
    every_minutes: everyMinutes,
    alert_after_failures: alertAfterFailures.default(1),
    /** Production only, and only an admin may set it: Gift Balance Inquiry cases record real transactions. */
    allow_production_gift: z.boolean().default(false),
  })
  .strict()
  .refine((input) => !input.allow_production_gift || input.environment === "production", {
    path: ["allow_production_gift"],
    message: "applies only to production (Gift Balance Inquiry cases always run elsewhere)",
  });
export type CreateMonitorInput = z.input<typeof createMonitorSchema>;

export const updateMonitorSchema = z
  .object({
    name: name.optional(),
    cases: caseIds.optional(),
    every_minutes: everyMinutes.optional(),
    alert_after_failures: alertAfterFailures.optional(),
    paused: z.boolean().optional(),
    allow_production_gift: z.boolean().optional(),
  })
  .strict();
export type UpdateMonitorInput = z.input<typeof updateMonitorSchema>;

const monitorStateSchema = z.enum(["passing", "failing", "unknown"]);
export type MonitorState = z.infer<typeof monitorStateSchema>;

export const monitorSchema = z.object({
  id: z.string(),
  name: z.string(),
  environment: z.enum(ENVIRONMENTS),
  cases: z.array(z.string()).nullable(),
  every_minutes: z.number().int(),
  alert_after_failures: z.number().int(),
  /** Failing runs in a row up to now (the monitor turns failing, and alerts, at `alert_after_failures`). */
  failing_runs: z.number().int(),
  allow_production_gift: z.boolean(),
  paused: z.boolean(),
  created_by: z.string(),
  created_at: z.string(),
  next_run_at: z.string(),
  last_run: z
    .object({
      id: z.string(),
      status: z.string(),
      passed: z.number().int(),
      failed: z.number().int(),
      finished_at: z.string().nullable(),
    })
    .nullable(),
  state: monitorStateSchema,
  /** Whether the caller may change, run, pause or delete it: its owner or an admin (others see it read-only). */
  can_manage: z.boolean(),
  /** Whether a run is under way now (run now answers 409 `run_in_progress` meanwhile). */
  running: z.boolean(),
  /** The newest alert that could not be delivered (given up, or still being retried). */
  delivery_problem: z
    .object({
      type: z.string(),
      state: z.enum(["pending", "failed"]),
      attempts: z.number().int(),
      last_error: z.string().nullable(),
      next_attempt_at: z.string().nullable(),
    })
    .nullable(),
});
export type MonitorView = z.infer<typeof monitorSchema>;

const monitorRunSchema = z.object({
  id: z.string(),
  status: z.string(),
  passed: z.number().int(),
  failed: z.number().int(),
  failed_cases: z.array(z.string()),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  scheduled: z.boolean(),
  late: z.boolean(),
});
export type MonitorRunView = z.infer<typeof monitorRunSchema>;

/** Where alerts go: the host of ALERT_WEBHOOK_URL (never its path or query, which may hold a token), or null: off. */
const alertTargetSchema = z.object({ host: z.string().nullable(), signed: z.boolean() });

export const monitorListSchema = z.object({ monitors: z.array(monitorSchema), alerts: alertTargetSchema });
export type MonitorListResponse = z.infer<typeof monitorListSchema>;

export const monitorDetailSchema = z.object({ monitor: monitorSchema, runs: z.array(monitorRunSchema) });
export type MonitorDetailResponse = z.infer<typeof monitorDetailSchema>;

export const monitorRunResultSchema = z.object({ run_id: z.string() });
export type MonitorRunResponse = z.infer<typeof monitorRunResultSchema>;

export const monitorDeletedSchema = z.object({ deleted: z.string() });

const ALERT_TYPES = ["monitor.failing", "monitor.recovered", "monitor.test"] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

const deliveryAttemptSchema = z.object({
  at: z.string(),
  /** The receiver's HTTP status; null when it did not answer in time. */
  status: z.number().int().nullable(),
  ms: z.number().int(),
  error: z.string().optional(),
});

export const deliverySchema = z.object({
  /** Also the alert's `webhook-id`, the same on every attempt and redelivery. */
  id: z.string(),
  type: z.enum(ALERT_TYPES),
  created_at: z.string(),
  attempts: z.array(deliveryAttemptSchema),
  state: z.enum(["pending", "delivered", "failed"]),
  next_attempt_at: z.string().nullable(),
});
export type DeliveryView = z.infer<typeof deliverySchema>;

export const deliveryListSchema = z.object({ deliveries: z.array(deliverySchema) });
export type DeliveryListResponse = z.infer<typeof deliveryListSchema>;

export const testAlertSchema = z
  .object({
    /** The monitor the test alert names (its deliveries list shows it); none: a test of the receiver alone. */
    monitor_id: z.string().max(100).optional(),
  })
  .strict();
export type TestAlertInput = z.input<typeof testAlertSchema>;

/** The alert's JSON (docs/design.md §13), signed as Standard Webhooks. */
export interface MonitorAlert {
  type: AlertType;
  /** When the alert was made (ISO 8601); the same on every retry, unlike `webhook-timestamp`. */
  timestamp: string;
  data: {
    monitor: { id: string; name: string; environment: EnvironmentName } | null;
    run: {
      id: string;
      status: string;
      passed: number;
      failed: number;
      failed_cases: string[];
      url: string;
    } | null;
    /** One line, safe to show as is in Slack or Teams. */
    text: string;
  };
}
