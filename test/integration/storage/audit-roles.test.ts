/**
 * The database roles docs/operations/postgresql-and-instances.md recommends, on a real PostgreSQL: the table owner applies the migrations; the
 * console's own role can INSERT and SELECT audit rows and checkpoints but never UPDATE or DELETE them, and still
 * starts (migrations already applied), appends, checkpoints and verifies.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAuditLog } from "@/lib/server/audit";
import { migrate, openDatabase, type DatabaseHandle } from "@/lib/server/database";
import { startPostgres, type PostgresCluster } from "../../support/postgres";

/** As in docs/operations/postgresql-and-instances.md (Database roles), after the owner's first start applied the migrations. */
const GRANTS = `
GRANT USAGE ON SCHEMA public TO console_app;
GRANT SELECT, INSERT ON audit_log, audit_checkpoints TO console_app;
GRANT SELECT, UPDATE ON audit_chain_head TO console_app;
GRANT SELECT ON schema_migrations TO console_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON sessions, rate_limits, certification_runs, support_batches,
  support_batch_cards, user_suspensions TO console_app;`;

describe("database roles on postgres", () => {
  let cluster: PostgresCluster;
  let app: DatabaseHandle;
  const folder = mkdtempSync(path.join(os.tmpdir(), "audit-roles-"));

  beforeAll(async () => {
    cluster = await startPostgres();
    cluster.psql(cluster.url, "create role console_owner login; create role console_app login;");
    cluster.psql(cluster.url, "create database console owner console_owner");
    const base = cluster.url.replace(/postgres@/, "console_owner@").replace(/\/postgres$/, "/console");
    const owner = await openDatabase({ databaseUrl: base });
    await migrate(owner.db);
    await owner.close();
    cluster.psql(base, GRANTS);
    app = await openDatabase({ databaseUrl: base.replace("console_owner@", "console_app@") });
  });
  afterAll(async () => {
    await app?.close();
    await cluster?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  test("the console's role starts, appends, checkpoints and verifies, and can neither UPDATE nor DELETE", async () => {
    expect(await migrate(app.db)).toEqual([]);
    const log = createAuditLog({
      db: app.db,
      hmacKey: "audit-roles-test-key",
      checkpoints: { file: path.join(folder, "checkpoints.jsonl"), everyMs: 0 },
    });
    await log.append({ event: "audit_read", outcome: "success" });
    await log.checkpoint();
    expect(await log.verify()).toMatchObject({ ok: true, rows: 1, checkpoints: 1 });
    for (const statement of [
      sql`update audit_log set reason = 'x'`,
      sql`delete from audit_log`,
      sql`truncate audit_log`,
      sql`delete from audit_checkpoints`,
      sql`alter table audit_log disable trigger user`,
    ]) {
      const error = await app.db.execute(statement).then(
        () => null,
        (failure: Error & { cause?: Error }) => failure.cause?.message ?? failure.message,
      );
      expect(error).toMatch(/permission denied|must be owner/);
    }
  });
});
