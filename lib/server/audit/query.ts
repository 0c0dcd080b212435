/**
 * Reads the audit log newest first with filters, one page at a time. Paging is by keyset (the sequence number of
 * the last row seen), so page 10,000 costs what page 1 does and rows appended meanwhile never shift a page.
 */
import "server-only";
import { and, desc, eq, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/lib/server/database";
import { queryRows } from "@/lib/server/database/rows";
import { auditLog } from "@/lib/server/database/schema";
import type { AuditRow } from "./chain";
import { cardHmac } from "./entry";

const MAX_PAGE_SIZE = 500;

/** A date PostgreSQL's timestamptz holds (JavaScript's reach further both ways, and the query would fail). */
const storableDate = z.coerce
  .date()
  .min(new Date("0001-01-01T00:00:00Z"), "must be in year 1 or later")
  .max(new Date("9999-12-31T23:59:59.999Z"), "must be in year 9999 or earlier");

export const auditQuerySchema = z
  .object({
    userId: z.string().min(1).max(256).optional(),
    event: z.string().min(1).max(64).optional(),
    /** Last 4 digits, or a full card number (searched by its keyed hash, never stored or compared in clear). */
    card: z
      .string()
      .transform((value) => value.replace(/[\s-]/g, ""))
      .pipe(z.string().regex(/^(\d{4}|\d{12,19})$/, "give the last 4 digits or the full card number"))
      .optional(),
    from: storableDate.optional(),
    to: storableDate.optional(),
    cursor: z
      .string()
      .regex(/^\d{1,18}$/, "not a cursor from this log")
      .optional(),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(100),
  })
  .strict();

export type AuditQuery = z.input<typeof auditQuerySchema>;

export interface AuditPage {
  rows: AuditRow[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

function auditFilterConditions(hmacKey: string, query: z.output<typeof auditQuerySchema>): SQL[] {
  const conditions: SQL[] = [];
  if (query.userId) conditions.push(eq(auditLog.userId, query.userId));
  if (query.event) conditions.push(eq(auditLog.event, query.event));
  if (query.card) {
    conditions.push(
      query.card.length === 4
        ? eq(auditLog.cardLast4, query.card)
        : eq(auditLog.cardHmac, cardHmac(hmacKey, query.card)),
    );
  }
  if (query.from) conditions.push(gte(auditLog.time, query.from));
  if (query.to) conditions.push(lte(auditLog.time, query.to));
  return conditions;
}

/** One page; throws a ZodError for bad filters. */
export async function queryAuditLog(db: Database, hmacKey: string, input: AuditQuery): Promise<AuditPage> {
  const query = auditQuerySchema.parse(input);
  const conditions = auditFilterConditions(hmacKey, query);
  if (query.cursor) conditions.push(lt(auditLog.seq, Number(query.cursor)));
  const rows = (await db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.seq))
    .limit(query.limit + 1)) as AuditRow[];
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  return { rows: page, nextCursor: more ? String(page[page.length - 1]!.seq) : null };
}

const MAX_USERS_PAGE = 100;

export const auditUsersQuerySchema = z
  .object({
    /** Part of a user id, any case; empty for all. */
    q: z
      .string()
      .max(256)
      .regex(/^[^\u0000-\u001f\u007f]*$/, "must be printable")
      .default(""),
    limit: z.coerce.number().int().min(1).max(MAX_USERS_PAGE).default(20),
  })
  .strict();

export type AuditUsersQuery = z.input<typeof auditUsersQuerySchema>;

/** Distinct ids looked at per call at most: a substring match over a log of very many users stays bounded. */
const MAX_USERS_SCANNED = 20_000;

/**
 * Every user id the log knows that contains `q` (any case), in order, up to `limit`; `more` when there may be
 * others. The distinct ids are walked by a skip scan of the (user_id, seq) index: one index probe per distinct
 * user, never a pass over the rows, so a log of millions of rows answers as fast as its number of users allows.
 */
export async function listAuditUsers(
  db: Database,
  input: AuditUsersQuery,
): Promise<{ users: string[]; more: boolean }> {
  const { q, limit } = auditUsersQuerySchema.parse(input);
  const needle = q.toLowerCase();
  const rows = await queryRows<{ user_id: string }>(
    db,
    sql`
    with recursive ids(user_id, n) as (
      (select user_id, 1 from ${auditLog} where user_id is not null order by user_id limit 1)
      union all
      select (select a.user_id from ${auditLog} a where a.user_id > ids.user_id order by a.user_id limit 1), ids.n + 1
      from ids where ids.user_id is not null and ids.n < ${MAX_USERS_SCANNED}
    )
    select user_id from ids
    where user_id is not null and strpos(lower(user_id), ${needle}) > 0
    limit ${limit + 1}`,
  );
  const users = rows.map((row) => row.user_id);
  return { users: users.slice(0, limit), more: users.length > limit };
}
