/**
 * A suspension is looked up in memory on every signed-in call: what is kept must follow each suspension, lift and
 * expiry at once, and nothing is kept while the change feed cannot vouch for it.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDatabaseRegistry, type DatabaseHandle } from "@/lib/server/database";
import { createSuspensionStore } from "@/lib/server/session/suspensions";
import type { ChangeFeed } from "@/lib/server/database/change-feed";
import { seedDataDir } from "@/test/support/pglite-template";
import { fileTempDir } from "@/test/support/temp-dirs";

const databases = createDatabaseRegistry();
let handle: DatabaseHandle;

beforeAll(async () => {
  const dataDir = fileTempDir("suspension-cache-");
  seedDataDir(dataDir);
  handle = await databases.open({ dataDir });
}, 60_000);
afterAll(() => databases.close(), 30_000);

/** Counts the database reads of `activeFor` by watching the statements that reach the suspensions table. */
function counted(feed: ChangeFeed, now: () => Date) {
  let reads = 0;
  const db = new Proxy(handle.db, {
    get(target, key, receiver) {
      if (key === "select") reads += 1;
      return Reflect.get(target, key, receiver);
    },
  });
  return { store: createSuspensionStore({ db, feed, now }), reads: () => reads };
}

it("answers from memory until a suspension, a lift or the clock changes the answer", async () => {
  let clock = Date.parse("2026-05-01T10:00:00Z");
  const now = () => new Date(clock);
  const { store, reads } = counted(handle.sessionFeed, now);
  expect(await store.activeFor("kim")).toBeNull();
  expect(await store.activeFor("kim")).toBeNull();
  expect(reads()).toBe(1);

  await store.suspend({ userId: "kim", minutes: 10, reason: "TICKET-1", by: "ada" });
  expect(await store.activeFor("kim")).toMatchObject({ userId: "kim", reason: "TICKET-1" });
  expect(await store.activeFor("kim")).not.toBeNull();
  expect(reads()).toBe(2);

  clock += 10 * 60_000;
  expect(await store.activeFor("kim")).toBeNull();
  expect(reads()).toBe(2);

  clock -= 60_000;
  expect(await store.activeFor("kim")).not.toBeNull();
  expect(await store.lift("kim")).toBe(true);
  expect(await store.activeFor("kim")).toBeNull();
});

it("a change announced by another writer of the same database reaches this instance's memory", async () => {
  const now = () => new Date();
  const reader = counted(handle.sessionFeed, now);
  const writer = createSuspensionStore({ db: handle.db, feed: handle.sessionFeed, now });
  expect(await reader.store.activeFor("lee")).toBeNull();
  await writer.suspend({ userId: "lee", minutes: 5, reason: null, by: "ada" });
  expect(await reader.store.activeFor("lee")).toMatchObject({ userId: "lee" });
  await writer.lift("lee");
  expect(await reader.store.activeFor("lee")).toBeNull();
});

it("keeps nothing while the feed is down", async () => {
  const down: ChangeFeed = { ...handle.sessionFeed, live: () => false };
  const { store, reads } = counted(down, () => new Date());
  await store.activeFor("max");
  await store.activeFor("max");
  expect(reads()).toBe(2);
});
