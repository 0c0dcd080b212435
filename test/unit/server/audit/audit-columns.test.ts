import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getTableColumns } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { AUDIT_COLUMNS, CSV_COLUMNS, INSERT_COLUMNS } from "@/lib/server/audit/columns";
import { csvLine } from "@/lib/server/audit/csv";
import { GENERATED_KEY_FILE, loadEvidenceSigningKey } from "@/lib/server/certification/signing-key";
import { auditLog } from "@/lib/server/database/schema";
import { loadKey } from "@/lib/server/util/generated-key";
import { csvCell } from "@/lib/server/util/csv";

describe("one audit column list", () => {
  test("the INSERT names every audit_log column in table order, and the CSV export follows the same list", () => {
    const tableColumns = Object.values(getTableColumns(auditLog)).map((column) => column.name);
    expect(AUDIT_COLUMNS.map((column) => column.name)).toEqual(tableColumns);
    expect(INSERT_COLUMNS).toBe(tableColumns.map((name) => `"${name}"`).join(", "));
    // The masked card is exported as "card"; its last-4 search key is not exported.
    expect(CSV_COLUMNS).toEqual(
      tableColumns
        .filter((name) => name !== "card_last4")
        .map((name) => (name === "card_masked" ? "card" : name)),
    );
  });

  test("a CSV line has one cell per header, the card masked", () => {
    const line = csvLine({
      seq: 7,
      time: new Date("2026-01-01T00:00:00.000Z"),
      userId: "ann",
      roles: ["support", "admin"],
      clientAddress: "127.0.0.1",
      event: "support.lookup",
      environment: "embedded",
      operation: "balance",
      cardMasked: "0001",
      cardLast4: "0001",
      cardHmac: "h",
      upstreamStatus: 200,
      requestId: null,
      outcome: "success",
      reason: "=ticket, 1",
      details: { a: 1 },
      prevHash: "p",
      rowHash: "r",
    });
    expect(line).toBe(
      "7,2026-01-01T00:00:00.000Z,ann,support admin,127.0.0.1,support.lookup,embedded,balance,0001,h,200,,success," +
        `"'=ticket, 1","{""a"":1}",p,r\r\n`,
    );
    expect(csvCell("@SUM(1)")).toBe("'@SUM(1)");
  });
});

describe("one generated-key store", () => {
  test("the evidence signing key is generated and reused through lib/server/keys, which says where it came from", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "keys-"));
    try {
      const first = await loadEvidenceSigningKey({ env: { DATA_DIR: dataDir } });
      expect(first.source).toBe("generated");
      const stored = loadKey({
        name: "EVIDENCE_SIGNING_KEY",
        dataDir,
        file: GENERATED_KEY_FILE,
        generate: () => "not used",
        warn: () => {},
      });
      expect(stored.source).toBe("data_dir");
      expect((await loadEvidenceSigningKey({ env: { DATA_DIR: dataDir } })).kid).toBe(first.kid);
      expect(statSync(path.join(dataDir, GENERATED_KEY_FILE)).mode & 0o777).toBe(0o600);
      // No draft is left behind by the write-then-link.
      expect(readdirSync(dataDir)).toEqual([GENERATED_KEY_FILE]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
