/**
 * Support batches in the database, on PGlite and a real PostgreSQL, against the in-process embedded sandbox
 * through the console's own card API client: results in input order with the 429 card retried after its wait,
 * one audit row per card, cards never run twice by concurrent runners, a batch taken over when its runner's
 * lease lapsed, cancel, and the masked results CSV.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { createAuditLog, type AuditLog } from "@/lib/server/audit";
import { batchBalanceInquiry } from "@/lib/server/inquiry/operations";
import { consoleRoot, setConfigForTests } from "@/lib/server/root";
import type { Database } from "@/lib/server/database";
import { auditLog as auditTable, supportBatchCards } from "@/lib/server/database/schema";
import { createBatchRunner, type BatchRunner, type DetachedInquiry } from "@/lib/server/support/batch-runner";
import { claimRunner, findBatch } from "@/lib/server/support/batch-store";
import {
  cancelOwnedBatch,
  listBatches,
  readBatch,
  resultsCsv,
  resultsPage,
  retryFailedCards,
  startBatch,
  type SupportBatchDeps,
} from "@/lib/server/support/batches";
import { createCardVault } from "@/lib/server/support/card-vault";
import type { ResultFilter, SupportBatchProgress } from "@/lib/shared/support-contract";
import { BACKENDS, useBackend } from "../storage/backends";

const HMAC_KEY = "support-batch-test-hmac-key-0123456789";
const ACTOR = { userId: "sam", roles: ["support" as const], clientAddress: "127.0.0.1" };
const OWNER = { userId: "sam", roles: ["support"] };
const RATE_LIMITED = "6006491000000068";

function deps(db: Database, auditLog: AuditLog, runner: BatchRunner): SupportBatchDeps {
  return { db, auditLog, hmacKey: HMAC_KEY, vault: createCardVault(HMAC_KEY), runner, maxCards: 10_000 };
}

function runnerOn(
  db: Database,
  auditLog: AuditLog,
  inquire: DetachedInquiry = batchBalanceInquiry,
  extra = {},
) {
  return createBatchRunner({
    db,
    auditLog,
    vault: createCardVault(HMAC_KEY),
    inquire,
    callContext: consoleRoot().calls.fromState,
    concurrency: 4,
    ...extra,
  });
}

/** Active cards that the sandbox does not know answer 404; the fixtures answer as docs/design.md §5 says. */
function cards(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `7006491${String(index).padStart(9, "0")}`);
}

async function auditRowsFor(db: Database, batchId: string) {
  return db
    .select()
    .from(auditTable)
    .where(
      sql`${auditTable.details}->>'batch_id' = ${batchId} and ${auditTable.event} = 'support_batch_card'`,
    );
}

beforeAll(() => {
  setConfigForTests({
    SESSION_SECRET: "support-batch-test-session-secret-0123456789",
    PORT: "3000",
    CARD_API_TIMEOUT_MS: "2000",
  });
});

describe.each(BACKENDS)("support batches on %s", (kind) => {
  const backend = useBackend(kind);

  test("a batch runs every card once, in input order, the 429 card after its wait, one audit row each", async () => {
    const { db } = backend.handle;
    const audit = createAuditLog({ db, hmacKey: HMAC_KEY });
    const runner = runnerOn(db, audit);
    const list = [
      "6006491000000001",
      "6006491000000019",
      RATE_LIMITED,
      "6006491000000027",
      "6006491000000035",
      ...cards(20),
    ];
    const support = deps(db, audit, runner);
    const started = await startBatch(support, {
      input: { cards: [...list, "not a card"], reason: "TICKET-42" },
      actor: ACTOR,
      environment: "embedded",
      credentials: { kind: "demo" },
    });
    expect(started).toMatchObject({ total: list.length, bad_line_count: 1, bad_lines: [{ line: 26 }] });
    await runner.settled(started.id);
    const progress = await readBatch(support, started.id, OWNER);
    expect(progress).toMatchObject({ status: "done", total: 25, done: 25, failed: 22, eta_seconds: 0 });
    // "No such card" is an answer, apart from the failures; the five counts add up to the total.
    expect(progress).toMatchObject({ found: 3, not_found: 20, errors: 2, cancelled: 0, in_flight: 0 });
    const batchRow = (await findBatch(db, started.id, new Date()))!;
    const shown = async (show: ResultFilter) =>
      (await resultsPage(support, batchRow, 0, 100, show)).rows.map((row) => row.line);
    expect(await shown("found")).toEqual([1, 2, 4]);
    expect(await shown("failed")).toEqual([3, 5]);
    expect(await shown("not_found")).toHaveLength(20);
    expect(await shown("cancelled")).toEqual([]);

    const csv = await new Response(
      resultsCsv(support, (await findBatch(db, started.id, new Date()))!),
    ).text();
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe(
      "line,last4,card_hash,gift,gift_rewards,loyalty,loyalty_rewards,discount,promotional,punch,punch_rewards,status,error",
    );
    // Every input line: 25 cards and the skipped line, with why.
    expect(lines).toHaveLength(27);
    expect(lines[26]).toMatch(/^26,,,,,,,,,,,skipped,not a card number/);
    expect(lines[1]).toMatch(
      /^1,0001,(?:'-|\w)[\w-]{42},25\.00,5\.00,120\.00,10\.00,0\.00,15\.00,7\.00,1\.00,found,$/,
    );
    expect(lines[3]).toMatch(/^3,0068,(?:'-|\w)[\w-]{42},,,,,,,,,rate_limited,.*429/);
    expect(lines[4]).toMatch(/^4,0027,.*,found,$/);
    expect(lines[5]).toMatch(/^5,0035,.*,upstream_error,.*500/);
    expect(lines[6]).toMatch(/^6,0000,.*,not_found,/);
    for (const card of list) expect(csv).not.toContain(card);
    expect(csv).not.toMatch(/\d{12,}/);

    const [limited] = await db.select().from(supportBatchCards).where(eq(supportBatchCards.position, 2));
    expect(limited).toBeDefined();
    const rows = await auditRowsFor(db, started.id);
    expect(rows).toHaveLength(25);
    expect(rows.every((row) => row.userId === "sam" && row.reason === "TICKET-42")).toBe(true);
    expect(rows.every((row) => row.cardMasked?.length === 4 && row.cardHmac)).toBe(true);
    expect(new Set(rows.map((row) => Number(row.details?.position))).size).toBe(25);
    // Card numbers are forgotten once looked up.
    const sealed = await db.execute(
      sql`select count(*) as n from support_batch_cards where batch_id = ${started.id} and card_sealed is not null`,
    );
    const count = Array.isArray(sealed) ? sealed[0].n : (sealed as { rows: { n: number }[] }).rows[0]!.n;
    // Only the two failed cards (rate limited, upstream error) keep theirs, sealed, for "Run the failed cards again".
    expect(Number(count)).toBe(2);
    const again = await retryFailedCards(support, batchRow, {
      actor: ACTOR,
      environment: "embedded",
      credentials: { kind: "demo" },
    });
    expect(again).toMatchObject({ total: 2, reason: "TICKET-42" });
    await runner.settled(again.id);
    const rerun = await resultsPage(support, (await findBatch(db, again.id, new Date()))!, 0, 10);
    expect(rerun.rows.map((row) => [row.line, row.last4])).toEqual([
      [3, "0068"],
      [5, "0035"],
    ]);
  });

  test("the results CSV keeps the uploaded columns beside the results: as uploaded, masked, bounded", async () => {
    const { db } = backend.handle;
    const audit = createAuditLog({ db, hmacKey: HMAC_KEY });
    const support = deps(db, audit, runnerOn(db, audit));
    const wide = Array.from({ length: 30 }, (_, index) => `c${index}`);
    const csvText = [
      `customer,card_number,note,status,${wide.join(",")}`,
      `C-1,6006491000000001,"ok, thanks",open,${wide.map(() => "w").join(",")}`,
      `C-2,not a card,old card 6006491000000019,closed`,
      `=C-3,7006491000000000,${"x".repeat(500)},`,
    ].join("\r\n");
    const started = await startBatch(support, {
      input: { csv: csvText },
      actor: ACTOR,
      environment: "embedded",
      credentials: { kind: "demo" },
    });
    expect(started.bad_lines).toEqual([{ line: 3, message: expect.stringContaining("not a card number") }]);
    await support.runner.settled(started.id);
    const csv = await new Response(
      resultsCsv(support, (await findBatch(db, started.id, new Date()))!),
    ).text();
    const lines = csv.trim().split("\r\n");
    const header = lines[0]!.split(",");
    // Ours, then the uploaded columns but the card number, named as uploaded (ours win a clash), at most 20.
    expect(header.slice(13)).toEqual(["customer", "note", "uploaded_status", ...wide.slice(0, 17)]);
    expect(lines[1]).toMatch(/,found,,C-1,"ok, thanks",open,w,/);
    expect(lines[1]!.split(",")).toHaveLength(header.length + 1); // the quoted note holds one comma
    // A skipped line keeps its columns; a card number in a note is masked as in every free text.
    expect(lines[2]).toMatch(/^3,,.*,skipped,not a card number[^,]*,C-2,old card 600649\*{6}0019,closed,/);
    // A formula is written as text; a long cell is cut at 200 characters; missing cells are empty.
    expect(lines[3]).toMatch(/,not_found,[^,]*,'=C-3,x{200},{18}$/);
    expect(csv).not.toMatch(/\d{12,}/);
  });

  test("two runners on one batch (two instances) never run a card twice", async () => {
    const { db } = backend.handle;
    const otherDb = kind === "postgres" ? (await backend.openAnother()).db : db;
    const audit = createAuditLog({ db, hmacKey: HMAC_KEY });
    const calls = new Map<string, number>();
    const counting: DetachedInquiry = async (source, input) => {
      calls.set(input.card_number, (calls.get(input.card_number) ?? 0) + 1);
      return batchBalanceInquiry(source, input);
    };
    // The first runner takes the batch; the second finds its lease lapsed (a clock ahead) and joins.
    // (Its clock is 31 s ahead: past the 30 s runner lease, well inside the 120 s card lease.)
    const first = runnerOn(db, audit, counting, { cardLeaseMs: 120_000 });
    const second = runnerOn(otherDb, createAuditLog({ db: otherDb, hmacKey: HMAC_KEY }), counting, {
      now: () => Date.now() + 31_000,
      cardLeaseMs: 120_000,
    });
    const support = deps(db, audit, first);
    const list = cards(120);
    const started = await startBatch(support, {
      input: { cards: list },
      actor: ACTOR,
      environment: "embedded",
      credentials: { kind: "demo" },
    });
    await second.ensureRunning(started.id);
    await Promise.all([first.settled(started.id), second.settled(started.id)]);
    expect([...calls.values()].every((n) => n === 1)).toBe(true);
    expect(calls.size).toBe(120);
    expect(await auditRowsFor(db, started.id)).toHaveLength(120);
    expect(await readBatch(support, started.id, OWNER)).toMatchObject({ status: "done", done: 120 });
  });

  test("a batch whose runner died is taken over when its lease lapses, and finished", async () => {
    const { db } = backend.handle;
    const audit = createAuditLog({ db, hmacKey: HMAC_KEY });
    // A runner that never starts: the batch is left queued, as if its instance died before running it.
    const dead: BatchRunner = { ensureRunning: async () => {}, settled: async () => {}, wake: () => {} };
    const support = deps(db, audit, dead);
    const started = await startBatch(support, {
      input: { cards: cards(10) },
      actor: ACTOR,
      environment: "embedded",
      credentials: { kind: "demo" },
    });
    // The dead instance had claimed it with a lease.
    expect(await claimRunner(db, started.id, new Date(), 30_000)).toBeDefined();
    const early = runnerOn(db, audit);
    await early.ensureRunning(started.id);
    await early.settled(started.id);
    expect((await readBatch(deps(db, audit, early), started.id, OWNER)).done).toBe(0);

    const later = runnerOn(db, audit, batchBalanceInquiry, {
      now: () => Date.now() + 31_000,
    });
    const progress = await readBatch(deps(db, audit, later), started.id, OWNER);
    expect(progress.status).toBe("running");
    await later.settled(started.id);
    expect(await readBatch(deps(db, audit, later), started.id, OWNER)).toMatchObject({
      status: "done",
      done: 10,
    });
  });

  test("cancel mid-way: cards not started are cancelled, finished ones keep their results", async () => {
    const { db } = backend.handle;
    const audit = createAuditLog({ db, hmacKey: HMAC_KEY });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let looked = 0;
    const holder: { support?: SupportBatchDeps } = {};
    let batchId = "";
    let atCancel: SupportBatchProgress | undefined;
    const gated: DetachedInquiry = async (source, input) => {
      looked += 1;
      if (looked === 5) {
        // The agent cancels while the fifth card is in flight.
        atCancel = await cancelOwnedBatch(holder.support!, batchId, OWNER, ACTOR);
        release();
      }
      if (looked > 5) await gate;
      return batchBalanceInquiry(source, input);
    };
    const runner = runnerOn(db, audit, gated, { concurrency: 1 });
    const support = deps(db, audit, runner);
    holder.support = support;
    const started = await startBatch(
      { ...support, runner: { ensureRunning: async () => {}, settled: async () => {}, wake: () => {} } },
      { input: { cards: cards(50) }, actor: ACTOR, environment: "embedded", credentials: { kind: "demo" } },
    );
    batchId = started.id;
    await runner.ensureRunning(batchId);
    await runner.settled(batchId);
    const progress = await readBatch(support, batchId, OWNER);
    expect(progress).toMatchObject({ status: "cancelled", total: 50, done: 5, cancelled: 45, in_flight: 0 });
    expect(looked).toBe(5);
    // At the cancel, the card already sent is in flight, not lost: the counts add up to the total.
    expect(atCancel).toMatchObject({ status: "cancelled", cancelled: 45, in_flight: 1, eta_seconds: null });
    const sum = (p: SupportBatchProgress) => p.found + p.not_found + p.errors + p.cancelled + p.in_flight;
    expect(sum(atCancel!)).toBe(50);
    expect(sum(progress)).toBe(50);
    const csv = await new Response(resultsCsv(support, (await findBatch(db, batchId, new Date()))!)).text();
    expect(csv.match(/,cancelled,/g)).toHaveLength(45);
    expect(await auditRowsFor(db, batchId)).toHaveLength(5);
  });

  test("a batch is its owner's: anyone else gets 404, an admin may read it", async () => {
    const { db } = backend.handle;
    const audit = createAuditLog({ db, hmacKey: HMAC_KEY });
    const idle: BatchRunner = { ensureRunning: async () => {}, settled: async () => {}, wake: () => {} };
    const support = deps(db, audit, idle);
    const started = await startBatch(support, {
      input: { csv: "card_number\n6006491000000001\n" },
      actor: ACTOR,
      environment: "embedded",
      credentials: { kind: "demo" },
    });
    await expect(
      readBatch(support, started.id, { userId: "eve", roles: ["engineer"] }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
    expect((await readBatch(support, started.id, { userId: "alice", roles: ["admin"] })).id).toBe(started.id);
    // The list: sam's own batches newest first; eve has none; the admin sees sam's too.
    const second = await startBatch(support, {
      input: { cards: ["6006491000000019"] },
      actor: ACTOR,
      environment: "embedded",
      credentials: { kind: "demo" },
    });
    const mine = await listBatches(support, OWNER);
    expect(mine.batches.slice(0, 2).map((batch) => batch.id)).toEqual([second.id, started.id]);
    expect(mine.batches[0]).toMatchObject({ user_id: "sam", status: "queued", total: 1, in_flight: 1 });
    expect((await listBatches(support, { userId: "eve", roles: ["engineer"] })).batches).toEqual([]);
    const everyone = await listBatches(support, { userId: "alice", roles: ["admin"] });
    expect(everyone.batches.map((batch) => batch.id)).toContain(started.id);
  });
});
