/**
 * Audit group commit when the database refuses one row of a batch (on the embedded PGlite): the statement fails
 * as a whole, so its rows are written again one by one, and only the refused row's append fails. Rows never
 * carry a NUL or a lone surrogate, whatever field of the caller's they came from.
 */
import { describe, expect, it } from "vitest";
import { createAuditAppender } from "@/lib/server/audit/append";
import { getServices } from "@/lib/server/root";
import { configure } from "../support";

const KEY = "batch-retry-test-key-of-some-length";
/** Further back than PostgreSQL's timestamptz reaches (4713 BC): the database refuses the row, not the code. */
const BEFORE_POSTGRES_TIME = new Date(-8.64e15);

describe("an audit batch with one row the database refuses", () => {
  it("commits every other row of the batch; only the refused row's append fails", async () => {
    configure();
    const { db } = await getServices();
    const batches: number[] = [];
    let calls = 0;
    const now = () => (++calls === 3 ? BEFORE_POSTGRES_TIME : new Date());
    const append = createAuditAppender(db, KEY, now, undefined, (rows) => batches.push(rows));
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, index) =>
        append({ event: "audit_read", outcome: "success", reason: `row ${index}` }),
      ),
    );
    expect(results.map((result) => result.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "rejected",
      ...Array(5).fill("fulfilled"),
    ]);
    const seqs = results.flatMap((result) => (result.status === "fulfilled" ? [result.value.seq] : []));
    // Contiguous: the refused row took no place in the chain.
    expect(seqs.map((seq) => seq - seqs[0]!)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(batches.reduce((sum, rows) => sum + rows, 0)).toBe(7);
  });

  it("stores no NUL or lone surrogate from any field", async () => {
    configure();
    const { db } = await getServices();
    const append = createAuditAppender(db, KEY);
    const row = await append({
      event: "audit_read",
      outcome: "failure",
      userId: "user\u0000x",
      operation: "GET /api/x\u0000",
      requestId: "req-\ud800",
      reason: "why\u0000\udc00",
      details: { "key\u0000": "value\u0000", user: "\ud83d\ude00 ok" },
    });
    expect(row).toMatchObject({
      userId: "user\uFFFDx",
      operation: "GET /api/x\uFFFD",
      requestId: "req-\uFFFD",
      reason: "why\uFFFD\uFFFD",
      details: { "key\uFFFD": "value\uFFFD", user: "\ud83d\ude00 ok" },
    });
  });
});
