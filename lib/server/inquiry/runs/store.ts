/**
 * The team's inquiry runs, kept on the server (docs/design.md §4 `GET /api/runs`): one row per inquiry, holding the
 * exchange record exactly as the caller received it (card masked, secrets redacted by lib/shared/redaction.ts
 * on the way out), so a run can be shared by link and found by its Request Id. Kept RUNS_RETENTION_DAYS.
 */
import "server-only";
import { and, desc, eq, ilike, lt, or, type SQL } from "drizzle-orm";
import type { EnvironmentName, ExchangeRecord } from "@/lib/shared/contracts";
import type { InquiryOperation } from "@/lib/shared/operations";
import type { Database } from "@/lib/server/database";
import { columnArraysInsert, queryText, type ArrayColumn } from "@/lib/server/database/rows";
import { inquiryRuns } from "@/lib/server/database/schema";
import type { TeamRun, TeamRunSummary } from "./api";

export interface RecordRunInput {
  user: { id: string; name: string };
  operation: InquiryOperation;
  card: string | null;
  exchange: ExchangeRecord;
  now?: Date;
}

export interface TeamRunFilter {
  requestId?: string;
  /** A user id, or part of a user's name (case-insensitive). */
  user?: string;
  operation?: InquiryOperation;
  limit?: number;
}

export async function recordTeamRun(db: Database, input: RecordRunInput): Promise<void> {
  await recordTeamRuns(db, [input]);
}

/** A run as its batch writes it: `now` is the batch's time unless the run brings its own. */
type RunRow = RecordRunInput & { now: Date };

/** Times and the exchange go as text: drizzle's postgres-js driver passes a timestamptz[] parameter through unserialized. */
const RUN_COLUMNS: readonly ArrayColumn<RunRow>[] = [
  { name: "id", type: "text", value: ({ exchange }) => exchange.id },
  { name: "user_id", type: "text", value: ({ user }) => user.id },
  { name: "user_name", type: "text", value: ({ user }) => user.name },
  { name: "environment", type: "text", value: ({ exchange }) => exchange.environment },
  { name: "operation", type: "text", value: ({ operation }) => operation },
  { name: "request_id", type: "text", value: ({ exchange }) => exchange.request_id ?? null },
  { name: "card", type: "text", value: ({ card }) => card },
  { name: "status", type: "smallint", value: ({ exchange }) => exchange.response.status },
  {
    name: "started_at",
    type: "text",
    value: ({ exchange }) => exchange.started_at,
    select: "v.started_at::timestamptz",
  },
  {
    name: "recorded_at",
    type: "text",
    value: ({ now }) => now.toISOString(),
    select: "v.recorded_at::timestamptz",
  },
  {
    name: "exchange",
    type: "text",
    value: ({ exchange }) => JSON.stringify(exchange),
    select: "v.exchange::jsonb",
  },
];

const RUNS = columnArraysInsert(RUN_COLUMNS);

/** Several runs in one statement, one array per column; a run already kept (a retried insert) is kept once. */
const INSERT_RUNS = `insert into inquiry_runs (${RUNS.names})
${RUNS.select}
on conflict do nothing`;

export async function recordTeamRuns(db: Database, inputs: readonly RecordRunInput[]): Promise<void> {
  if (inputs.length === 0) return;
  const now = new Date();
  await queryText(db, INSERT_RUNS, RUNS.arrays(inputs.map((input) => ({ ...input, now: input.now ?? now }))));
}

type Row = typeof inquiryRuns.$inferSelect;

function summaryOf(row: Row): TeamRunSummary {
  return {
    id: row.id,
    user_id: row.userId,
    user_name: row.userName,
    environment: row.environment as EnvironmentName,
    operation: row.operation as InquiryOperation,
    request_id: row.requestId,
    card: row.card,
    status: row.status,
    started_at: row.startedAt.toISOString(),
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Newest first; every filter given must match. */
export async function listTeamRuns(db: Database, filter: TeamRunFilter = {}): Promise<TeamRunSummary[]> {
  const conditions: SQL[] = [];
  if (filter.requestId) conditions.push(eq(inquiryRuns.requestId, filter.requestId));
  if (filter.operation) conditions.push(eq(inquiryRuns.operation, filter.operation));
  if (filter.user) {
    const byName = ilike(inquiryRuns.userName, `%${escapeLike(filter.user)}%`);
    conditions.push(or(eq(inquiryRuns.userId, filter.user), byName)!);
  }
  const rows = await db
    .select()
    .from(inquiryRuns)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(inquiryRuns.startedAt))
    .limit(filter.limit ?? 100);
  return rows.map(summaryOf);
}

export async function getTeamRun(db: Database, id: string): Promise<TeamRun | null> {
  const [row] = await db.select().from(inquiryRuns).where(eq(inquiryRuns.id, id)).limit(1);
  return row ? { ...summaryOf(row), exchange: row.exchange } : null;
}

/** Deletes runs recorded more than `retentionDays` ago; returns how many. */
export async function pruneTeamRuns(db: Database, retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const deleted = await db
    .delete(inquiryRuns)
    .where(lt(inquiryRuns.recordedAt, cutoff))
    .returning({ id: inquiryRuns.id });
  return deleted.length;
}
