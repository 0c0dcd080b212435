/**
 * `queryText`, the prepared fixed statements behind every proxied call's writes, on both backends: rows come back
 * by column name, a failing statement fails alone, and on PGlite no statement slips into a transaction under way.
 */
import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { openDatabase } from "@/lib/server/database";
import { queryRows, queryText } from "@/lib/server/database/rows";
import { seedDataDir } from "@/test/support/pglite-template";
import { fileTempDir } from "@/test/support/temp-dirs";
import { BACKENDS, useBackend } from "./backends";

const ECHO = `select v.word, v.note from unnest($1::text[], $2::text[]) as v(word, note) order by v.word`;
const DIVIDE = `select 1 / $1::int as quotient`;

describe.each(BACKENDS)("queryText on %s", (kind) => {
  const backend = useBackend(kind);

  test("answers rows by column name, array elements exactly as sent, NULL as null", async () => {
    const words = ['a "quoted" word', "back\\slash", "comma, brace } and NULL", "NULL", ""];
    const notes = [null, "two", null, "four", "five"];
    const rows = await queryText<{ word: string; note: string | null }>(backend.handle.db, ECHO, [
      words,
      notes,
    ]);
    const sent = words
      .map((word, index) => ({ word, note: notes[index] }))
      .sort((x, y) => (x.word < y.word ? -1 : 1));
    expect(rows.map(({ word, note }) => ({ word, note }))).toEqual(sent);
  });

  test("a failing statement rejects with its SQL state; the same and other statements run after it", async () => {
    const db = backend.handle.db;
    await expect(queryText(db, DIVIDE, [0])).rejects.toMatchObject({ code: "22012" });
    const [row] = await queryText<{ quotient: string | number }>(db, DIVIDE, [1]);
    expect(String(row?.quotient)).toBe("1");
    await expect(queryText(db, "select from nowhere_at_all where $1::int = 1", [1])).rejects.toMatchObject({
      code: "42P01",
    });
    expect(await queryText(db, ECHO, [["x"], [null]])).toEqual([{ word: "x", note: null }]);
  });
});

describe("queryText on pglite, beside a transaction", () => {
  const backend = useBackend("pglite");

  test("waits for a transaction under way instead of running inside it", async () => {
    const db = backend.handle.db;
    await db.execute(sql`create table query_text_probe (id int)`);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.execute(sql`insert into query_text_probe values (1)`);
      inserted();
      await held;
      tx.rollback();
    });
    await insertedYet;
    const counted = queryText<{ count: string }>(
      db,
      "select count(*)::text as count from query_text_probe",
      [],
    );
    // One turn of the event loop: time for the statement to run, were it not waiting.
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await expect(transaction).rejects.toThrow();
    // Run inside the transaction, it would have counted the row the rollback took back.
    expect(await counted).toEqual([{ count: "0" }]);
    expect(await queryRows(db, sql`select count(*)::int as count from query_text_probe`)).toEqual([
      { count: 0 },
    ]);
  });

  test("rejects once the database is closed, rather than calling into it", async () => {
    const dataDir = fileTempDir("console-closed-");
    seedDataDir(dataDir);
    const handle = await openDatabase({ dataDir });
    expect(await queryText(handle.db, ECHO, [["open"], [null]])).toEqual([{ word: "open", note: null }]);
    await handle.close();
    await expect(queryText(handle.db, ECHO, [["closed"], [null]])).rejects.toThrow(/closed/i);
  });
});
