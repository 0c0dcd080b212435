/**
 * Audit group commit on both backends: appends made together are written in fewer statements than rows, and no
 * append is acknowledged before its batch committed (a reader on another connection sees the row by then).
 */
import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { createAuditAppender } from "@/lib/server/audit/append";
import type { Database } from "@/lib/server/database";
import { queryRows } from "@/lib/server/database/rows";
import { BACKENDS, useBackend } from "./backends";

const KEY = "group-commit-test-key";

type Statement = (...args: unknown[]) => Promise<unknown>;

/** `db` whose driver statements (PGlite's prepared ones, postgres-js's `unsafe`: the appender's batch insert) go through `wrap`. */
function withStatements(db: Database, wrap: (run: Statement) => Statement): Database {
  const client = (db as unknown as { $client: Record<string, unknown> }).$client;
  const wrapped = Object.create(db) as Database & { $client: unknown };
  wrapped.$client = new Proxy(client, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if ((name === "queryPrepared" || name === "unsafe") && typeof value === "function")
        return wrap((...args) => (value as Statement).apply(target, args));
      return value;
    },
  });
  return wrapped;
}

/** `db` whose driver statements wait until `open()` is called. */
function gated(db: Database) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let started = 0;
  const wrapped = withStatements(db, (run) => async (...args) => {
    started += 1;
    await gate;
    return run(...args);
  });
  return { db: wrapped, open, started: () => started };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe.each(BACKENDS)("audit group commit on %s", (kind) => {
  const backend = useBackend(kind);

  test("appends made together share statements; each is acknowledged only after its batch committed", async () => {
    const batches: number[] = [];
    const statement = gated(backend.handle.db);
    const append = createAuditAppender(statement.db, KEY, undefined, undefined, (rows) => batches.push(rows));
    const reader = kind === "postgres" ? (await backend.openAnother()).db : backend.handle.db;
    const committedWhenAcknowledged: boolean[] = [];
    let acknowledged = 0;

    const appends = Array.from({ length: 20 }, (_, index) =>
      append({ event: "audit_read", outcome: "success", reason: `row ${index}` }).then(async (row) => {
        acknowledged += 1;
        const found = await queryRows<{ seq: string | number }>(
          reader,
          sql`select seq from audit_log where seq = ${row.seq}::bigint`,
        );
        committedWhenAcknowledged.push(found.length === 1);
        return row;
      }),
    );
    // The first batch's statement is under way and held: nothing may be acknowledged yet.
    await until(() => statement.started() > 0);
    expect(acknowledged).toBe(0);

    statement.open();
    const rows = await Promise.all(appends);
    expect(committedWhenAcknowledged).toEqual(Array(20).fill(true));
    expect(batches.reduce((sum, size) => sum + size, 0)).toBe(20);
    expect(batches.length).toBeLessThan(20);
    expect(new Set(rows.map((row) => row.seq)).size).toBe(20);
  });

  test("appends arriving in separate event-loop callbacks, as requests' do, are batched too", async () => {
    const batches: number[] = [];
    const append = createAuditAppender(backend.handle.db, KEY, undefined, undefined, (rows) =>
      batches.push(rows),
    );
    const appends = await new Promise<Promise<unknown>[]>((resolve) => {
      const started: Promise<unknown>[] = [];
      for (let index = 0; index < 20; index += 1)
        setImmediate(() => {
          started.push(append({ event: "audit_read", outcome: "success", reason: `callback ${index}` }));
          if (started.length === 20) resolve(started);
        });
    });
    await Promise.all(appends);
    expect(batches.reduce((sum, size) => sum + size, 0)).toBe(20);
    expect(batches.length).toBeLessThan(20);
  });

  test("a row the database refuses fails alone: the rest of its batch is written one by one", async () => {
    // Further back than timestamptz reaches (4713 BC): the database refuses this row, and with it the statement.
    const refused = new Date(-8.64e15);
    let calls = 0;
    const now = () => (++calls === 4 ? refused : new Date());
    const append = createAuditAppender(backend.handle.db, KEY, now);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) =>
        append({ event: "audit_read", outcome: "success", reason: `batch ${index}` }),
      ),
    );
    expect(results.map((result) => result.status)).toEqual([
      ...Array(3).fill("fulfilled"),
      "rejected",
      ...Array(6).fill("fulfilled"),
    ]);
    const written = await queryRows<{ reason: string }>(
      backend.handle.db,
      sql`select reason from audit_log where reason like 'batch %' order by seq`,
    );
    expect(written.map((row) => row.reason)).toEqual(
      [0, 1, 2, 4, 5, 6, 7, 8, 9].map((index) => `batch ${index}`),
    );
  });

  test("a failed batch rejects each of its appends and acknowledges none", async () => {
    const broken = withStatements(backend.handle.db, () => async () => {
      throw new Error("the database went away");
    });
    const append = createAuditAppender(broken, KEY);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => append({ event: "audit_read", outcome: "success" })),
    );
    expect(results.map((result) => result.status)).toEqual(Array(5).fill("rejected"));
  });
});
