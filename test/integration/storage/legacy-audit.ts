/**
 * Audit logs as an older console, or a writer without the key, leaves them: rows chained with plain SHA-256, and
 * a database migrated only up to a given migration.
 */
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AuditRow } from "@/lib/server/audit";
import { canonicalSerialisation, GENESIS_HASH, legacyRowHash } from "@/lib/server/audit/chain";

/** What a writer without the key can do: chain rows again from genesis with SHA-256, numbered from 1. */
export function plainChain(rows: AuditRow[], version: 1 | 2 = 2): AuditRow[] {
  let prevHash = GENESIS_HASH;
  return rows.map((row, index) => {
    const fields = { ...row, seq: index + 1, prevHash };
    const rowHash =
      version === 1
        ? legacyRowHash(fields)
        : createHash("sha256").update(canonicalSerialisation(fields, 2)).digest("hex");
    prevHash = rowHash;
    return { ...fields, rowHash };
  });
}

/** `count` rows of the plain SHA-256 chain, as consoles before the keyed chain wrote them. */
export function legacyRows(count: number): AuditRow[] {
  const rows = Array.from({ length: count }, (_, index) => ({
    seq: index + 1,
    time: new Date(Date.UTC(2025, 0, index + 1)),
    userId: `old-${index + 1}`,
    roles: ["admin"],
    clientAddress: null,
    event: "audit_read",
    environment: null,
    operation: null,
    cardMasked: null,
    cardLast4: null,
    cardHmac: null,
    upstreamStatus: null,
    requestId: null,
    outcome: "success" as const,
    reason: null,
    details: null,
    prevHash: "",
    rowHash: "",
  }));
  return plainChain(rows, 1);
}

/** A copy of db/migrations holding only the migrations before `tag`: a database as an older console left it. */
export function migrationsBefore(tag: string, folder: string): string {
  const source = path.join(process.cwd(), "db", "migrations");
  const journal = JSON.parse(readFileSync(path.join(source, "meta", "_journal.json"), "utf8")) as {
    entries: { idx: number; tag: string }[];
  };
  const cut = journal.entries.findIndex((entry) => entry.tag === tag);
  const entries = journal.entries.slice(0, cut);
  const target = mkdtempSync(path.join(folder, "migrations-"));
  mkdirSync(path.join(target, "meta"));
  writeFileSync(path.join(target, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
  for (const entry of entries) {
    copyFileSync(path.join(source, `${entry.tag}.sql`), path.join(target, `${entry.tag}.sql`));
  }
  return target;
}
