/**
 * A card number typed into free text (a support reason, a batch reason, a detail, an upstream's echo) is masked
 * before it is stored anywhere: the audit row, its CSV export, its JSON log line, and `support_batches.reason`.
 */
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { createAuditLog } from "@/lib/server/audit";
import { auditLog, supportBatchCards, supportBatches } from "@/lib/server/database/schema";
import { captureLogs } from "@/lib/server/util/logger";
import { deferCard, finishCard, insertBatch } from "@/lib/server/support/batch-store";
import { useBackend } from "./backends";

const CARD = "6006491000000001";
/** Each hides the card: followed by another number, or grouped with separators the old rule let through. */
const REASONS = [
  `ticket ${CARD} 2024`,
  "card 6006.4910.0000.0001 disputed",
  "card 6006/4910/0000/0001 disputed",
  "card 6006_4910_0000_0001 disputed",
];

function digitsOnly(text: string): string {
  return text.replace(/\D/g, "");
}

describe("free text with a card number on pglite", () => {
  const backend = useBackend("pglite");

  test("the audit row, the CSV export and the JSON log line hold the reason masked", async () => {
    const log = createAuditLog({ db: backend.handle.db, hmacKey: "free-text-test-key" });
    const logs = captureLogs();
    try {
      for (const reason of REASONS) {
        await log.append({
          event: "support_lookup",
          outcome: "success",
          reason,
          details: { note: reason, upstream_message: `card ${CARD}9 not found` },
        });
      }
    } finally {
      logs.restore();
    }
    const stored = await backend.handle.db.select().from(auditLog);
    expect(stored).toHaveLength(REASONS.length);
    expect(stored[0]!.reason).toBe("ticket ****************2024");
    for (const row of stored) expect(digitsOnly(JSON.stringify(row))).not.toContain(CARD);
    let csv = "";
    for await (const chunk of log.csvLines()) csv += chunk;
    expect(csv).toContain("ticket ****************2024");
    expect(digitsOnly(csv)).not.toContain(CARD);
    const lines = logs.lines().filter((line) => line.includes('"msg":"audit"'));
    expect(lines).toHaveLength(REASONS.length);
    for (const line of lines) expect(digitsOnly(line)).not.toContain(CARD);
  });

  test("a support batch's reason and bad-line messages are stored masked", async () => {
    for (const [index, reason] of REASONS.entries()) {
      const id = `batch-${index}`;
      await insertBatch(backend.handle.db, {
        id,
        userId: "sam",
        roles: ["support"],
        clientAddress: "192.168.100.200",
        environment: "embedded",
        credentials: "demo",
        reason,
        badLines: { count: 1, lines: [{ line: 2, message: `${CARD} 77 is not a card` }] },
        cards: [],
        now: new Date(),
      });
      const [row] = await backend.handle.db.select().from(supportBatches).where(eq(supportBatches.id, id));
      expect(digitsOnly(row!.reason!)).not.toContain(CARD);
      expect(digitsOnly(JSON.stringify(row!.badLines))).not.toContain(CARD);
      expect(row!.clientAddress).toBe("192.168.100.200");
    }
  });

  test("a card's error text (an upstream's echo) is stored masked, when it fails and when it waits", async () => {
    const card = { line: 1, last4: "0001", cardHmac: "h", cardSealed: "sealed" };
    await insertBatch(backend.handle.db, {
      id: "batch-echo",
      userId: "sam",
      roles: ["support"],
      clientAddress: null,
      environment: "embedded",
      credentials: "demo",
      reason: null,
      badLines: { count: 0, lines: [] },
      cards: [card, { ...card, line: 2 }],
      now: new Date(),
    });
    await backend.handle.db.update(supportBatchCards).set({ state: "running" });
    const echo = `upstream: card ${CARD} 2024 unknown`;
    await finishCard(
      backend.handle.db,
      "batch-echo",
      0,
      { outcome: "upstream_error", balances: null, upstreamStatus: 500, error: echo },
      new Date(),
    );
    await deferCard(backend.handle.db, "batch-echo", 1, new Date(), echo);
    const rows = await backend.handle.db
      .select({ error: supportBatchCards.error })
      .from(supportBatchCards)
      .where(eq(supportBatchCards.batchId, "batch-echo"));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.error).toContain("upstream: card ");
      expect(digitsOnly(row.error!)).not.toContain(CARD);
    }
  });
});
