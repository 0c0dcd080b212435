/**
 * Tampering by someone who can write to the database but does not hold AUDIT_HMAC_KEY (docs/design.md §7): the chain
 * is keyed, and signed checkpoints of its head live in the database, the server log and a DATA_DIR file. Each
 * kind of tampering is made by hand here the way such a writer would (lifting the append-only triggers, chaining
 * again with the only hash they can compute) and must be reported, on PGlite and on PostgreSQL.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, test } from "vitest";
import { createAuditLog, KEYED_CHAIN_MIGRATION, type AuditLog, type AuditRow } from "@/lib/server/audit";
import { canonicalSerialisation, GENESIS_HASH } from "@/lib/server/audit/chain";
import { createDatabaseRegistry, migrate, openDatabase, type StorageSettings } from "@/lib/server/database";
import { auditChainHead, auditCheckpoints, auditLog } from "@/lib/server/database/schema";
import { captureLogs } from "@/lib/server/util/logger";
import { BACKENDS, useBackend, type Backend } from "./backends";
import { legacyRows, migrationsBefore, plainChain } from "./legacy-audit";

const HMAC_KEY = "audit-tamper-test-key";
const folder = mkdtempSync(path.join(os.tmpdir(), "audit-tamper-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;

/** Runs statements as the table owner would: the append-only triggers lifted for the change. */
async function asOwner(backend: Backend, statements: ReturnType<typeof sql>[]): Promise<void> {
  await backend.handle.db.transaction(async (tx) => {
    await tx.execute(sql`alter table audit_log disable trigger user`);
    await tx.execute(sql`alter table audit_checkpoints disable trigger user`);
    for (const statement of statements) await tx.execute(statement);
    await tx.execute(sql`alter table audit_log enable trigger user`);
    await tx.execute(sql`alter table audit_checkpoints enable trigger user`);
  });
}

async function reset(backend: Backend, keyedFrom = 1): Promise<void> {
  await asOwner(backend, [
    sql`delete from audit_log`,
    sql`delete from audit_checkpoints`,
    sql`update audit_chain_head set last_seq = 0, last_hash = ${GENESIS_HASH}, keyed_from = ${keyedFrom}`,
  ]);
}

function openLog(backend: Backend, file: string, instance = "instance-a"): AuditLog {
  return createAuditLog({
    db: backend.handle.db,
    hmacKey: HMAC_KEY,
    checkpoints: { file, everyRows: 1000, everyMs: 0, instance },
  });
}

/** 10 rows, a checkpoint of row 10, then 3 more rows the checkpoint does not cover. */
async function populated(backend: Backend): Promise<{ log: AuditLog; file: string }> {
  await reset(backend);
  const file = path.join(folder, `checkpoints-${(files += 1)}.jsonl`);
  const log = openLog(backend, file);
  for (let index = 0; index < 10; index += 1) {
    await log.append({ event: "balance_inquiry", outcome: "success", userId: `user-${index}` });
  }
  await log.checkpoint();
  for (let index = 10; index < 13; index += 1) {
    await log.append({ event: "balance_inquiry", outcome: "success", userId: `user-${index}` });
  }
  expect(await log.verify()).toMatchObject({ ok: true, rows: 13, checkpoints: 1 });
  return { log, file };
}

async function storedRows(backend: Backend): Promise<AuditRow[]> {
  return (await backend.handle.db.select().from(auditLog).orderBy(asc(auditLog.seq))) as AuditRow[];
}

/** Replaces the whole log with `rows` and moves the chain head to its end. */
async function replaceLog(backend: Backend, rows: AuditRow[], keyedFrom?: number): Promise<void> {
  const last = rows[rows.length - 1];
  await asOwner(backend, [sql`delete from audit_log`]);
  if (rows.length > 0) await backend.handle.db.insert(auditLog).values(rows);
  await backend.handle.db
    .update(auditChainHead)
    .set({
      lastSeq: last?.seq ?? 0,
      lastHash: last?.rowHash ?? GENESIS_HASH,
      ...(keyedFrom ? { keyedFrom } : {}),
    })
    .where(eq(auditChainHead.id, 1));
}

describe.each(BACKENDS)("audit log tampering on %s", (kind) => {
  const backend = useBackend(kind);

  test("the tail truncated and the chain head moved back is caught against the checkpoint", async () => {
    const { log } = await populated(backend);
    const rows = await storedRows(backend);
    await replaceLog(backend, rows.slice(0, 7));
    const result = await log.verify();
    expect(result).toMatchObject({ ok: false, rows: 7, first_bad_row: 8 });
    expect(result.ok === false && result.reason).toMatch(/vouches for row 10 \(the log was truncated\)/);
  });

  test("a row edited and every row after it chained again is caught: the writer has no key", async () => {
    const { log } = await populated(backend);
    const rows = await storedRows(backend);
    rows[3] = { ...rows[3]!, reason: "nothing to see" };
    await replaceLog(backend, plainChain(rows));
    expect(await log.verify()).toMatchObject({ ok: false, rows: 0, first_bad_row: 1 });
  });

  test("re-chained as an old plain chain (the keyed start moved past the end) is caught", async () => {
    const { log } = await populated(backend);
    const rows = await storedRows(backend);
    rows[3] = { ...rows[3]!, reason: "nothing to see" };
    await replaceLog(backend, plainChain(rows, 1), 14);
    const result = await log.verify();
    expect(result).toMatchObject({ ok: false });
    expect(result.ok === false && result.reason).toMatch(/start of the keyed chain/);
  });

  test("a row deleted and the rest renumbered and chained again is caught", async () => {
    const { log } = await populated(backend);
    const rows = await storedRows(backend);
    rows.splice(4, 1);
    await replaceLog(backend, plainChain(rows));
    expect(await log.verify()).toMatchObject({ ok: false, first_bad_row: 1 });
  });

  test("everything deleted, checkpoints in the database too, is caught against the DATA_DIR file", async () => {
    const { log, file } = await populated(backend);
    await asOwner(backend, [sql`delete from audit_checkpoints`]);
    await replaceLog(backend, []);
    const result = await log.verify();
    expect(result).toMatchObject({ ok: false, rows: 0, first_bad_row: 1, checkpoints: 1 });
    expect(result.ok === false && result.reason).toMatch(/rows 1–10 are missing/);
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(1);
  });

  test("a forged row appended with the chain head moved to it is caught", async () => {
    const { log } = await populated(backend);
    const rows = await storedRows(backend);
    const last = rows[rows.length - 1]!;
    const fields = { ...last, seq: 14, prevHash: last.rowHash, userId: "mallory" };
    const forged = {
      ...fields,
      rowHash: createHash("sha256").update(canonicalSerialisation(fields, 2)).digest("hex"),
    };
    await backend.handle.db.insert(auditLog).values(forged);
    await backend.handle.db
      .update(auditChainHead)
      .set({ lastSeq: 14, lastHash: forged.rowHash })
      .where(eq(auditChainHead.id, 1));
    expect(await log.verify()).toMatchObject({ ok: false, rows: 13, first_bad_row: 14 });
  });

  test("a checkpoint written without the key is reported, in the database or in the file", async () => {
    const { log, file } = await populated(backend);
    const [checkpoint] = await backend.handle.db.select().from(auditCheckpoints);
    const jws = {
      ...checkpoint!.jws,
      signature: checkpoint!.jws.signature.replace(/^./, (c) => (c === "A" ? "B" : "A")),
    };
    writeFileSync(file, JSON.stringify(jws) + "\n", { flag: "a" });
    const result = await log.verify();
    expect(result).toMatchObject({ ok: false });
    expect(result.ok === false && result.reason).toMatch(
      /checkpoint in the file does not carry a valid signature/,
    );
  });

  test("rows of the plain chain written before the switch-over still verify, and the keyed chain continues them", async () => {
    await reset(backend);
    // As migration 0005 leaves an existing log: keyed from the row after the last one.
    await replaceLog(backend, legacyRows(3), 4);
    const log = openLog(backend, path.join(folder, `checkpoints-${(files += 1)}.jsonl`));
    // Until a keyed row follows them, nothing tells these rows from a log chained again without the key.
    expect(await log.verify()).toMatchObject({ ok: false, rows: 0, first_bad_row: 4, keyed_from: 4 });
    expect(await log.markKeyedStart()).toBe(true);
    expect(await log.markKeyedStart()).toBe(false);
    expect(await log.verify()).toMatchObject({ ok: true, rows: 4, keyed_from: 4 });
    await log.append({ event: "audit_verify", outcome: "success" });
    await log.checkpoint();
    expect(await log.verify()).toMatchObject({ ok: true, rows: 5, keyed_from: 4, checkpoints: 1 });
    const [marker] = await backend.handle.db.select().from(auditLog).where(eq(auditLog.seq, 4));
    expect(marker).toMatchObject({ event: "audit_chain_keyed", details: { keyed_from: 4, plain_rows: 3 } });
  });

  test("a row deleted, the checkpoints deleted, the keyed start moved past the end and the log chained again with plain SHA-256 is caught", async () => {
    const { log, file } = await populated(backend);
    const rows = await storedRows(backend);
    rows.splice(4, 1);
    await asOwner(backend, [sql`delete from audit_checkpoints`]);
    rmSync(file);
    await replaceLog(backend, plainChain(rows, 1), rows.length + 1);
    const result = await log.verify();
    expect(result).toMatchObject({ ok: false, rows: 0, first_bad_row: 13, checkpoints: 0, keyed_from: 13 });
    expect(result.ok === false && result.reason).toMatch(/no row written with the key follows the 12 rows/);
    // The same with the first row left keyed: it no longer carries the hash of a plain row before it.
    await replaceLog(backend, plainChain(rows, 1), 1);
    expect(await log.verify()).toMatchObject({ ok: false, first_bad_row: 1 });
  });

  test("the keyed start of a migrated log moved forward over keyed rows, those chained again with plain SHA-256, is caught", async () => {
    await reset(backend);
    await replaceLog(backend, legacyRows(3), 4);
    const file = path.join(folder, `checkpoints-${(files += 1)}.jsonl`);
    const log = openLog(backend, file);
    await log.markKeyedStart();
    for (let index = 0; index < 4; index += 1) {
      await log.append({ event: "audit_read", outcome: "success", userId: `user-${index}` });
    }
    expect(await log.verify()).toMatchObject({ ok: true, rows: 8, keyed_from: 4 });
    const rows = await storedRows(backend);
    rows.splice(4, 1);
    // Rows 1–6 as a plain chain, the genuine last row kept (renumbered to 7), keyed from 7.
    const forged = [...plainChain(rows.slice(0, 6), 1), { ...rows[6]!, seq: 7 }];
    await replaceLog(backend, forged, 7);
    expect(await log.verify()).toMatchObject({ ok: false, first_bad_row: 7 });
  });

  test("a database migrated to the keyed chain with plain rows in it: the start that migrated it writes the first keyed row", async () => {
    const settings: StorageSettings =
      kind === "postgres"
        ? { databaseUrl: backend.cluster!.createDatabase() }
        : { dataDir: mkdtempSync(path.join(folder, "pre-keyed-")) };
    const old = await openDatabase(settings);
    await migrate(old.db, migrationsBefore(KEYED_CHAIN_MIGRATION, folder));
    await old.db.insert(auditLog).values(legacyRows(3));
    const last = (await old.db.select().from(auditLog).where(eq(auditLog.seq, 3)))[0]!;
    await old.db.execute(sql`update audit_chain_head set last_seq = 3, last_hash = ${last.rowHash}`);
    await old.close();
    const registry = createDatabaseRegistry();
    try {
      const handle = await registry.open(settings);
      expect(handle.migrated).toContain(KEYED_CHAIN_MIGRATION);
      const log = createAuditLog({ db: handle.db, hmacKey: HMAC_KEY });
      expect(await log.verify()).toMatchObject({ ok: false, keyed_from: 4, first_bad_row: 4 });
      await log.markKeyedStart();
      expect(await log.verify()).toMatchObject({ ok: true, rows: 4, keyed_from: 4 });
    } finally {
      await registry.close();
    }
    const again = createDatabaseRegistry();
    try {
      expect((await again.open(settings)).migrated).toEqual([]);
    } finally {
      await again.close();
    }
  });

  test("a checkpoint is one signed log line and one file line; it names the row and time it vouches for", async () => {
    await reset(backend);
    const file = path.join(folder, `checkpoints-${(files += 1)}.jsonl`);
    const log = openLog(backend, file);
    await log.append({ event: "audit_read", outcome: "success" });
    const logs = captureLogs();
    try {
      await log.checkpoint();
      const line = logs.lines().find((text) => text.includes('"msg":"audit checkpoint"'));
      const logged = JSON.parse(line!) as { audit_checkpoint: { seq: number; jws: { signature: string } } };
      expect(logged.audit_checkpoint.seq).toBe(1);
      expect(readFileSync(file, "utf8")).toContain(logged.audit_checkpoint.jws.signature);
    } finally {
      logs.restore();
    }
    const result = await log.verify();
    expect(result).toMatchObject({ ok: true, rows: 1, checkpoints: 1, last_checkpoint: { seq: 1 } });
    expect(result.through).not.toBeNull();
  });

  test("a verify from the checkpoint walks only the rows after the last checkpoint found intact, and still finds an edit there", async () => {
    const { log } = await populated(backend);
    // The full verify in populated() found the chain intact through the checkpoint of row 10.
    expect(await log.verify("checkpoint")).toMatchObject({
      ok: true,
      rows: 13,
      walked_from: 10,
      started_at_checkpoint: { seq: 10, instance: "instance-a" },
    });
    await asOwner(backend, [sql`update audit_log set user_id = 'mallory' where seq = 12`]);
    expect(await log.verify("checkpoint")).toMatchObject({ ok: false, first_bad_row: 12, walked_from: 10 });
    // A log that has not verified yet starts at row 1.
    const fresh = openLog(backend, path.join(folder, `checkpoints-${(files += 1)}.jsonl`));
    expect(await fresh.verify("checkpoint")).toMatchObject({ ok: false, first_bad_row: 12, walked_from: 1 });
  });

  test("a verify from the checkpoint finds the checkpointed row itself edited", async () => {
    const { log } = await populated(backend);
    await asOwner(backend, [sql`update audit_log set user_id = 'mallory' where seq = 10`]);
    expect(await log.verify("checkpoint")).toMatchObject({ ok: false, first_bad_row: 10 });
  });

  test("closing the log (shutdown) writes a last checkpoint of what this process appended", async () => {
    await reset(backend);
    const file = path.join(folder, `checkpoints-${(files += 1)}.jsonl`);
    const log = openLog(backend, file);
    await log.append({ event: "audit_read", outcome: "success" });
    await log.append({ event: "audit_read", outcome: "success" });
    await log.close();
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(1);
    expect(await log.verify()).toMatchObject({ ok: true, rows: 2, last_checkpoint: { seq: 2 } });
  });

  if (kind === "postgres") {
    test("checkpoints of another instance sharing the key count; a checkpoint under another key does not", async () => {
      await reset(backend);
      const other = await backend.openAnother();
      const first = openLog(backend, path.join(folder, `checkpoints-${(files += 1)}.jsonl`));
      const second = createAuditLog({
        db: other.db,
        hmacKey: HMAC_KEY,
        checkpoints: {
          file: path.join(folder, `checkpoints-${(files += 1)}.jsonl`),
          everyMs: 0,
          instance: "b",
        },
      });
      await first.append({ event: "audit_read", outcome: "success" });
      await second.append({ event: "audit_read", outcome: "success" });
      await second.checkpoint();
      expect(await first.verify()).toMatchObject({
        ok: true,
        rows: 2,
        last_checkpoint: { seq: 2, instance: "b" },
      });
      const stranger = createAuditLog({
        db: other.db,
        hmacKey: "another-key",
        checkpoints: {
          file: path.join(folder, `checkpoints-${(files += 1)}.jsonl`),
          everyMs: 0,
          instance: "c",
        },
      });
      await stranger.checkpoint();
      expect(await first.verify()).toMatchObject({ ok: false });
    });
  }
});
