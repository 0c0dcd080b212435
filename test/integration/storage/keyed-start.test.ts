/**
 * A console started on a database an older console left (plain SHA-256 rows, migrated only before the keyed
 * chain) migrates it and writes the first keyed row in the same start, so its log verifies at once; a log with
 * plain rows and no keyed row after them does not (docs/design.md §7).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, test } from "vitest";
import { KEYED_CHAIN_MIGRATION } from "@/lib/server/audit";
import { migrate, openDatabase } from "@/lib/server/database";
import { auditLog } from "@/lib/server/database/schema";
import { startConsole, type ConsoleServer } from "../../support/console-server";
import { legacyRows, migrationsBefore } from "./legacy-audit";

const folder = mkdtempSync(path.join(os.tmpdir(), "keyed-start-"));
let server: ConsoleServer | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe("a console started on a log of the plain chain", () => {
  test("migrates it, writes the first keyed row at once, and its log verifies", async () => {
    const dataDir = path.join(folder, "data");
    const old = await openDatabase({ dataDir });
    await migrate(old.db, migrationsBefore(KEYED_CHAIN_MIGRATION, folder));
    await old.db.insert(auditLog).values(legacyRows(3));
    const [last] = await old.db.select().from(auditLog).where(eq(auditLog.seq, 3));
    await old.db.execute(sql`update audit_chain_head set last_seq = 3, last_hash = ${last!.rowHash}`);
    await old.close();

    server = await startConsole({ DATA_DIR: dataDir });
    const response = await fetch(`${server.url}/api/audit/verify`);
    expect(response.status).toBe(200);
    const verified = (await response.json()) as { ok: boolean; rows: number; keyed_from: number };
    expect(verified).toMatchObject({ ok: true, keyed_from: 4 });
    expect(verified.rows).toBeGreaterThanOrEqual(4);
    const rows = await fetch(`${server.url}/api/audit?event=audit_chain_keyed`);
    const body = (await rows.json()) as { rows: { seq: number; details: unknown }[] };
    expect(body.rows).toMatchObject([{ seq: 4, details: { keyed_from: 4, plain_rows: 3 } }]);
  });
});
