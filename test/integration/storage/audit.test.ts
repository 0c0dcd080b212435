/**
 * The audit log on both backends (docs/design.md §7): what a row may hold, the hash chain and its verification
 * against edits and deletions, concurrent writers, filtered keyset paging through many rows, CSV export.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { eq, gt, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { createAuditLog, type AuditLog, type AuditRow } from "@/lib/server/audit";
import { cardHmac } from "@/lib/server/audit/entry";
import { auditChainHead, auditLog } from "@/lib/server/database/schema";
import { captureLogs } from "@/lib/server/util/logger";
import { asDatabaseOwner, BACKENDS, useBackend, type Backend } from "./backends";

const HMAC_KEY = "audit-test-hmac-key";
const CARD = "6006491000000001";
const OTHER_CARD = "6006492000000002";
const root = path.resolve(__dirname, "../../..");

/** A clock that moves one second per reading, from a fixed start. */
function steppingClock(start = Date.parse("2026-01-01T00:00:00.000Z")) {
  let at = start;
  return () => new Date((at += 1000));
}

async function resetLog(backend: Backend): Promise<void> {
  await backend.handle.db.transaction(async (tx) => {
    await tx.execute(sql`alter table audit_log disable trigger audit_log_no_truncate`);
    await tx.execute(sql`truncate audit_log`);
    await tx.execute(sql`alter table audit_log enable trigger audit_log_no_truncate`);
    await tx
      .update(auditChainHead)
      .set({ lastSeq: 0, lastHash: "0".repeat(64) })
      .where(eq(auditChainHead.id, 1));
  });
}

/** Appends `count` varied rows, up to 100 at once (they batch), in order: row i gets seq i + 1. */
async function appendMany(audit: AuditLog, count: number): Promise<AuditRow[]> {
  const rows: AuditRow[] = [];
  for (let start = 0; start < count; start += 100) {
    const indexes = Array.from({ length: Math.min(100, count - start) }, (_, offset) => start + offset);
    rows.push(
      ...(await Promise.all(
        indexes.map((index) =>
          audit.append({
            event: index % 2 === 0 ? "inquiry.balance" : "inquiry.gift_balance",
            outcome: index % 5 === 0 ? "failure" : "success",
            userId: `user-${index % 3}`,
            roles: ["engineer"],
            environment: "embedded",
            card: index % 4 === 0 ? OTHER_CARD : CARD,
            upstreamStatus: 200,
            requestId: `req-${index}-abc`,
            reason: index === 7 ? 'ticket "CS-7", urgent\nsecond line' : null,
          }),
        ),
      )),
    );
  }
  expect(rows.map((row) => row.seq)).toEqual(rows.map((_, index) => rows[0]!.seq + index));
  return rows;
}

describe.each(BACKENDS)("audit log on %s", (kind) => {
  const backend = useBackend(kind);
  const audit = () => createAuditLog({ db: backend.handle.db, hmacKey: HMAC_KEY, now: steppingClock() });

  test("a row holds the masked card and its keyed hash, never the number, a token or a secret; it is also one log line", async () => {
    await resetLog(backend);
    const logs = captureLogs();
    try {
      const row = await audit().append({
        event: "inquiry.balance",
        outcome: "failure",
        userId: "alice@example.com",
        roles: ["support"],
        clientAddress: "192.0.2.10",
        environment: "production",
        operation: "balance-inquiry",
        card: "6006 4910 0000 0001",
        cardMask: "last4",
        upstreamStatus: 402,
        requestId: "req-12345-xyz",
        reason: `customer called about ${CARD}; token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl`,
        details: { client_secret: "s3cr3t-value", attempt: 2, note: `card ${OTHER_CARD}` },
      });
      expect(row).toMatchObject({
        seq: 1,
        cardMasked: "0001",
        cardLast4: "0001",
        cardHmac: cardHmac(HMAC_KEY, CARD),
        upstreamStatus: 402,
        requestId: "req-12345-xyz",
        outcome: "failure",
      });
      expect(row.reason).toBe("customer called about 600649******0001; token [REDACTED]");
      expect(row.details).toEqual({ client_secret: "[REDACTED]", attempt: 2, note: "card 600649******0002" });

      const [stored] = await backend.handle.db.select().from(auditLog).where(eq(auditLog.seq, 1));
      const storedText = JSON.stringify(stored);
      for (const leaked of [CARD, OTHER_CARD, "s3cr3t-value", "eyJhbGciOiJIUzI1NiJ9"]) {
        expect(storedText).not.toContain(leaked);
      }
      const line = logs.lines().find((text) => text.includes('"msg":"audit"'));
      expect(line).toBeDefined();
      const logged = JSON.parse(line!) as { audit: Record<string, unknown> };
      expect(logged.audit).toMatchObject({
        seq: 1,
        event: "inquiry.balance",
        userId: "alice@example.com",
        cardMasked: "0001",
      });
      expect(line).not.toContain(CARD);
      expect(line).not.toContain("s3cr3t-value");

      const full = await audit().append({ event: "inquiry.balance", outcome: "success", card: CARD });
      expect(full.cardMasked).toBe("600649******0001");
    } finally {
      logs.restore();
    }
  });

  test("text with quotes, backslashes, commas, braces, the word NULL and emoji is stored as given, batched or not", async () => {
    await resetLog(backend);
    const awkward = [
      "NULL",
      'a "quoted", {braced} value',
      'back\\slash \\" end',
      "emoji \ud83d\ude00, é",
      "",
      " padded ",
    ];
    const log = audit();
    const rows = await Promise.all(
      awkward.map((reason, index) =>
        log.append({
          event: "audit_read",
          outcome: "success",
          userId: reason || null,
          roles: index % 2 === 0 ? [] : ["engineer", "tester"],
          reason,
          details: { note: reason, index },
        }),
      ),
    );
    const stored = await backend.handle.db.select().from(auditLog).orderBy(auditLog.seq);
    expect(stored.map((row) => [row.reason, row.userId, row.roles, row.details])).toEqual(
      rows.map((row) => [row.reason, row.userId, row.roles, row.details]),
    );
    expect(stored.map((row) => row.reason)).toEqual(awkward);
    expect(await log.verify()).toMatchObject({ ok: true, rows: awkward.length });
  });

  test("bad input is refused before anything is written: unknown fields, a malformed card, a bad event name", async () => {
    await resetLog(backend);
    const log = audit();
    await expect(log.append({ event: "x", outcome: "success", token: "abc" } as never)).rejects.toThrow();
    await expect(log.append({ event: "x", outcome: "success", card: "1234" })).rejects.toThrow(/12 to 19/);
    await expect(log.append({ event: "Not An Event", outcome: "success" })).rejects.toThrow();
    await expect(log.append({ event: "x", outcome: "maybe" as never })).rejects.toThrow();
    expect(await log.verify()).toMatchObject({ ok: true, rows: 0 });
  });

  test("the database refuses UPDATE, DELETE and TRUNCATE of audit rows", async () => {
    await resetLog(backend);
    await appendMany(audit(), 2);
    const { db } = backend.handle;
    await expect(db.update(auditLog).set({ reason: "changed" }).where(eq(auditLog.seq, 1))).rejects.toThrow();
    await expect(db.delete(auditLog).where(eq(auditLog.seq, 1))).rejects.toThrow();
    await expect(db.execute(sql`truncate audit_log`)).rejects.toThrow();
    expect(await audit().verify()).toMatchObject({ ok: true, rows: 2 });
  });

  test("verify finds an edited row, a recomputed hash, a deleted row and a deleted tail, and says which row and why", async () => {
    await resetLog(backend);
    const rows = await appendMany(audit(), 6);
    const log = audit();
    expect(await log.verify()).toMatchObject({ ok: true, rows: 6 });

    // Someone with owner rights changes row 3's outcome.
    await asDatabaseOwner(backend.handle, [
      sql`update audit_log set outcome = 'success', upstream_status = 500 where seq = 3`,
    ]);
    expect(await log.verify()).toMatchObject({
      ok: false,
      rows: 2,
      first_bad_row: 3,
      reason: "row 3's content does not match its hash (the row was edited or written without the key)",
    });
    const original = rows[2]!;
    await asDatabaseOwner(backend.handle, [
      sql`update audit_log set outcome = ${original.outcome}, upstream_status = ${original.upstreamStatus} where seq = 3`,
    ]);
    expect(await log.verify()).toMatchObject({ ok: true, rows: 6 });

    // ... and also rewrites row 3's own hash: the next row no longer links to it.
    await asDatabaseOwner(backend.handle, [
      sql`update audit_log set row_hash = ${"f".repeat(64)} where seq = 3`,
    ]);
    const relinked = await log.verify();
    expect(relinked).toMatchObject({ ok: false, first_bad_row: 3 });
    await asDatabaseOwner(backend.handle, [
      sql`update audit_log set row_hash = ${original.rowHash} where seq = 3`,
    ]);

    // Row 2 deleted: a gap.
    await asDatabaseOwner(backend.handle, [sql`delete from audit_log where seq = 2`]);
    expect(await log.verify()).toMatchObject({
      ok: false,
      rows: 1,
      first_bad_row: 2,
      reason: "row 2 is missing (deleted)",
    });
    await backend.handle.db.transaction(async (tx) => {
      await tx.insert(auditLog).values(rows[1]!);
    });
    expect(await log.verify()).toMatchObject({ ok: true, rows: 6 });

    // The last two rows deleted: the chain head still counts them.
    await asDatabaseOwner(backend.handle, [sql`delete from audit_log where seq >= 5`]);
    expect(await log.verify()).toMatchObject({
      ok: false,
      rows: 4,
      first_bad_row: 5,
      reason: "rows 5–6 are missing at the end (deleted)",
    });
    await backend.handle.db.insert(auditLog).values([rows[4]!, rows[5]!]);
    expect(await log.verify()).toMatchObject({ ok: true, rows: 6 });

    // A later append continues the same chain.
    await log.append({ event: "audit.verify", outcome: "success" });
    expect(await log.verify()).toMatchObject({ ok: true, rows: 7 });
  });

  test("concurrent appends in one process form one unbroken chain", async () => {
    await resetLog(backend);
    const log = audit();
    await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        log.append({ event: "test.concurrent", outcome: "success", details: { index } }),
      ),
    );
    expect(await log.verify()).toMatchObject({ ok: true, rows: 40 });
  });

  test("two audit logs on one database (two instances) interleaving appends keep one chain", async () => {
    await resetLog(backend);
    const other = kind === "postgres" ? await backend.openAnother() : backend.handle;
    const first = audit();
    const second = createAuditLog({ db: other.db, hmacKey: HMAC_KEY });
    for (let round = 0; round < 5; round += 1) {
      await Promise.all([
        first.append({ event: "test.first", outcome: "success" }),
        second.append({ event: "test.second", outcome: "success" }),
        first.append({ event: "test.first", outcome: "success" }),
      ]);
      await second.append({ event: "test.second", outcome: "failure" });
    }
    expect(await first.verify()).toMatchObject({ ok: true, rows: 20 });
  });

  if (kind === "postgres")
    test("two console processes appending at once on one PostgreSQL keep one unbroken chain", async () => {
      await resetLog(backend);
      // Both writers connect (and migrate) first, then start appending on one signal, to overlap as much as they can.
      const writers = ["writer-a", "writer-b"].map((name) => {
        const child = spawn(
          process.execPath,
          [
            "--conditions=react-server",
            "--import",
            "tsx",
            path.join(__dirname, "audit-writer.mts"),
            backend.settings.databaseUrl!,
            name,
            "150",
          ],
          { cwd: root, env: { ...process.env, LOG_LEVEL: "warn" }, stdio: ["pipe", "pipe", "pipe"] },
        );
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        const exited = new Promise<string>((resolve, reject) =>
          child.once("exit", (code) =>
            code === 0 ? resolve(output) : reject(new Error(`${name}: ${output}`)),
          ),
        );
        const ready = new Promise<void>((resolve, reject) => {
          child.stdout.on("data", () => output.includes("ready") && resolve());
          exited.catch(reject);
        });
        return { child, exited, ready };
      });
      await Promise.all(writers.map((writer) => writer.ready));
      for (const writer of writers) writer.child.stdin.end("go\n");
      const outputs = await Promise.all(writers.map((writer) => writer.exited));
      for (const output of outputs) expect(output).toContain("done");
      expect(await audit().verify()).toMatchObject({ ok: true, rows: 300 });
      const all = await backend.handle.db
        .select({ userId: auditLog.userId, seq: auditLog.seq })
        .from(auditLog);
      expect(all.filter((row) => row.userId === "writer-a")).toHaveLength(150);
      expect(all.filter((row) => row.userId === "writer-b")).toHaveLength(150);
    });

  test("keyset paging walks 1,200 rows with filters, newest first, each row once; a full card is searched by its hash", async () => {
    await resetLog(backend);
    const clock = steppingClock();
    const log = createAuditLog({ db: backend.handle.db, hmacKey: HMAC_KEY, now: clock });
    const rows = await appendMany(log, 1200);

    async function walk(filters: Parameters<AuditLog["query"]>[0]): Promise<number[]> {
      const seen: number[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 100; page += 1) {
        const result = await log.query({ ...filters, cursor });
        seen.push(...result.rows.map((row) => row.seq));
        if (!result.nextCursor) return seen;
        cursor = result.nextCursor;
      }
      throw new Error("paging did not end");
    }
    const expected = (keep: (row: AuditRow) => boolean) =>
      rows
        .filter(keep)
        .map((row) => row.seq)
        .sort((a, b) => b - a);

    expect(await walk({ limit: 250 })).toEqual(expected(() => true));
    expect(await walk({ userId: "user-1", limit: 37 })).toEqual(expected((row) => row.userId === "user-1"));
    expect(await walk({ event: "inquiry.gift_balance", userId: "user-2" })).toEqual(
      expected((row) => row.event === "inquiry.gift_balance" && row.userId === "user-2"),
    );
    expect(await walk({ card: OTHER_CARD, limit: 500 })).toEqual(
      expected((row) => row.cardMasked === "600649******0002"),
    );
    expect(await walk({ card: "0001", limit: 500 })).toEqual(expected((row) => row.cardLast4 === "0001"));
    const from = rows[100]!.time;
    const to = rows[399]!.time;
    expect(await walk({ from: from.toISOString(), to: to.toISOString(), userId: "user-0" })).toEqual(
      expected((row) => row.time >= from && row.time <= to && row.userId === "user-0"),
    );
    // Rows appended while paging never shift a page.
    const first = await log.query({ limit: 10 });
    await log.append({ event: "audit.read", outcome: "success" });
    const second = await log.query({ limit: 10, cursor: first.nextCursor! });
    expect(second.rows[0]!.seq).toBe(first.rows[9]!.seq - 1);

    await expect(log.query({ card: "12345" })).rejects.toThrow(/last 4/);
    await expect(log.query({ cursor: "abc" })).rejects.toThrow();
    await expect(log.query({ limit: 501 })).rejects.toThrow();
    expect(await log.verify()).toMatchObject({ ok: true, rows: 1201 });
  });

  test("CSV export streams every matching row with safe quoting and no card number", async () => {
    // Continues the 1,200 rows of the paging test.
    const log = audit();
    const expectedRows = await backend.handle.db.$count(auditLog, eq(auditLog.userId, "user-1"));
    let text = "";
    let chunks = 0;
    for await (const chunk of log.csvLines({ userId: "user-1" })) {
      text += chunk;
      chunks += 1;
    }
    expect(chunks).toBeGreaterThan(1);
    const lines = text.split("\r\n").filter((line) => line.length > 0);
    expect(lines[0]).toBe(
      "seq,time,user_id,roles,client_address,event,environment,operation,card,card_hmac,upstream_status,request_id,outcome,reason,details,prev_hash,row_hash",
    );
    // Row 8 (index 7) has a quoted, multi-line reason: it belongs to user-1.
    expect(text).toContain('"ticket ""CS-7"", urgent\nsecond line"');
    expect(text.split("\r\n").filter((line) => /^\d+,/.test(line))).toHaveLength(expectedRows);
    expect(text).not.toContain(CARD);
    expect(text).toContain("600649******0001");

    const response = new Response(log.csvStream({ event: "audit.read" }));
    const body = await response.text();
    expect(body.split("\r\n").filter((line) => line.length > 0)).toHaveLength(2);
    const newer = await backend.handle.db.select().from(auditLog).where(gt(auditLog.seq, 1200));
    expect(body).toContain(`${newer[0]!.seq},`);
  });

  test("a verify or an export of many rows lets other work run between its pages", async () => {
    // Continues the 1,201 rows above: several pages of verify and of export.
    const log = audit();
    const turnsDuring = async (work: () => Promise<unknown>) => {
      let turns = 0;
      let done = false;
      const count = () => {
        if (done) return;
        turns += 1;
        setImmediate(count);
      };
      setImmediate(count);
      await work().finally(() => (done = true));
      return turns;
    };
    expect(
      await turnsDuring(() => log.verify().then((result) => expect(result.ok).toBe(true))),
    ).toBeGreaterThan(1);
    expect(
      await turnsDuring(async () => {
        for await (const chunk of log.csvLines()) expect(chunk.length).toBeGreaterThan(0);
      }),
    ).toBeGreaterThan(1);
  });
});
