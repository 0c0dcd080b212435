/**
 * The storage layer on both backends: migrations (idempotent, safe when instances start together), the
 * embedded database's single-process lock, server-side sessions with idle and absolute limits, the shared rate
 * limiter under concurrent consumers, and generated keys.
 */
import { createPrivateKey, sign, verify as verifySignature, createPublicKey } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { createDatabaseRegistry, migrate, openDatabase, pendingMigrations } from "@/lib/server/database";
import { DataDirInUseError } from "@/lib/server/database/data-dir-lock";
import { readMigrations } from "@/lib/server/database/migrate";
import { checkReadiness } from "@/lib/server/database/readiness";
import { generateEd25519Pem, generateHmacKey, loadOrCreateKey } from "@/lib/server/util/generated-key";
import { createRateLimiter } from "@/lib/server/http/rate-limit";
import { createSessionStore } from "@/lib/server/session/store";
import { freePort } from "../../support/console-server";
import { BACKENDS, useBackend } from "./backends";

/** A clock the test moves by hand. */
function manualClock(start = Date.parse("2026-03-01T09:00:00.000Z")) {
  let at = start;
  return {
    now: () => new Date(at),
    advance: (seconds: number) => {
      at += seconds * 1000;
    },
  };
}

describe.each(BACKENDS)("storage on %s", (kind) => {
  const databases = createDatabaseRegistry();
  const backend = useBackend(kind);

  test("migrations are applied once: a second run and a concurrent run find nothing to do", async () => {
    expect(await pendingMigrations(backend.handle.db)).toEqual([]);
    expect(await migrate(backend.handle.db)).toEqual([]);
    if (kind === "postgres") {
      // Three instances starting together on a fresh database: exactly one applies each migration.
      const url = backend.cluster!.createDatabase();
      const instances = await Promise.all(
        [1, 2, 3].map(() => openDatabase({ databaseUrl: url, maxConnections: 2 })),
      );
      try {
        const applied = await Promise.all(instances.map((instance) => migrate(instance.db)));
        const tags = (await readMigrations()).map((migration) => migration.tag);
        expect(applied.flat().sort()).toEqual(tags.sort());
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
      }
    }
    if (kind === "postgres") {
      expect(await checkReadiness(databases, backend.settings)).toEqual({
        ready: true,
        database: "postgres",
      });
      const closedPort = await freePort();
      const unreachable = await checkReadiness(databases, {
        databaseUrl: `postgres://user:pw@127.0.0.1:${closedPort}/x`,
      });
      expect(unreachable).toMatchObject({
        ready: false,
        reasons: [expect.stringMatching(/^database unreachable/)],
      });
      expect(JSON.stringify(unreachable)).not.toContain("pw@");
      await databases.close();
    }
  });

  if (kind === "pglite")
    test("a DATA_DIR in use is refused with a clear message, and can be opened again once closed", async () => {
      await expect(openDatabase(backend.settings)).rejects.toThrow(DataDirInUseError);
      await expect(openDatabase(backend.settings)).rejects.toThrow(/single-process/);
      await backend.handle.close();
      try {
        expect(await checkReadiness(databases, backend.settings)).toEqual({
          ready: true,
          database: "pglite",
        });
      } finally {
        await databases.close();
        backend.handle = await openDatabase(backend.settings);
      }
    });

  test("a session lives while used, ends after the idle timeout, and never outlives its absolute lifetime", async () => {
    const clock = manualClock();
    const store = createSessionStore({
      db: backend.handle.db,
      idleSeconds: 900,
      absoluteSeconds: 3600,
      touchEverySeconds: 60,
      now: clock.now,
    });
    const busy = await store.create({ userId: "alice", roles: ["engineer"] });
    const idle = await store.create({ userId: "bob", roles: ["support"] });
    expect(busy.id).toMatch(/^[\w-]{43}$/);
    expect(busy.expiresAt.getTime() - busy.createdAt.getTime()).toBe(3_600_000);

    // Alice calls every 800 s: within the idle limit each time, so she stays in...
    for (let step = 0; step < 4; step += 1) {
      clock.advance(800);
      const live = await store.getIfLive(busy.id);
      expect(live).toMatchObject({ userId: "alice", roles: ["engineer"] });
      expect(live!.expiresAt.getTime()).toBe(busy.expiresAt.getTime());
    }
    // ...until the absolute lifetime ends it, however active (3,200 s + 800 s > 3,600 s).
    clock.advance(800);
    expect(await store.getIfLive(busy.id)).toBeNull();
    // Bob was last seen at creation, 4,000 s ago: over.
    expect(await store.getIfLive(idle.id)).toBeNull();

    const fresh = await store.create({ userId: "carol", roles: [] });
    clock.advance(899);
    expect(await store.getIfLive(fresh.id)).not.toBeNull(); // touched at 899 s
    clock.advance(899);
    expect(await store.getIfLive(fresh.id)).not.toBeNull();
    clock.advance(900);
    expect(await store.getIfLive(fresh.id)).toBeNull();
    expect(await store.getIfLive("no-such-session")).toBeNull();
  });

  test("a sign-out on one instance ends the session on every instance; purge removes what is over", async () => {
    const clock = manualClock();
    const options = { idleSeconds: 900, absoluteSeconds: 28_800, now: clock.now };
    const instanceA = createSessionStore({ db: backend.handle.db, ...options });
    const otherHandle = kind === "postgres" ? await backend.openAnother() : backend.handle;
    const instanceB = createSessionStore({ db: otherHandle.db, ...options });

    const session = await instanceA.create({ userId: "dave", roles: ["tester"] });
    expect(await instanceB.getIfLive(session.id)).toMatchObject({ userId: "dave" });
    expect(await instanceB.end(session.id, "signed_out")).toBe(true);
    expect(await instanceA.getIfLive(session.id)).toBeNull();
    expect(await instanceA.end(session.id, "signed_out")).toBe(false);

    const [one, two] = await Promise.all([
      instanceA.create({ userId: "erin", roles: ["admin"] }),
      instanceA.create({ userId: "erin", roles: ["admin"] }),
    ]);
    expect(await instanceB.endAllForUser("erin")).toBe(2);
    expect(await instanceA.getIfLive(one.id)).toBeNull();
    expect(await instanceA.getIfLive(two.id)).toBeNull();

    const kept = await instanceA.create({ userId: "frank", roles: [] });
    clock.advance(60);
    expect(await instanceA.purgeExpired()).toBeGreaterThanOrEqual(3);
    expect(await instanceA.getIfLive(kept.id)).not.toBeNull();
  });

  test("the rate limiter admits exactly the limit among concurrent consumers, says when to retry, and resets per window", async () => {
    const clock = manualClock(Date.parse("2026-03-01T09:00:10.000Z"));
    const limiterA = createRateLimiter({ db: backend.handle.db, now: clock.now });
    const otherHandle = kind === "postgres" ? await backend.openAnother() : backend.handle;
    const limiterB = createRateLimiter({ db: otherHandle.db, now: clock.now });

    const results = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        (index % 2 ? limiterA : limiterB).consume("user:alice", 25, 60),
      ),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(25);
    expect(results.map((result) => result.remaining).sort((a, b) => a - b)).toEqual([
      ...Array(36).fill(0),
      ...Array.from({ length: 24 }, (_, index) => index + 1),
    ]);
    const refused = results.find((result) => !result.allowed)!;
    expect(refused.retryAfterSeconds).toBe(50); // the minute window ends at 09:01:00
    expect(results.filter((result) => result.allowed).every((result) => result.retryAfterSeconds === 0)).toBe(
      true,
    );

    // Another key and another window size count separately.
    expect(await limiterA.consume("user:bob", 1, 60)).toEqual({
      allowed: true,
      remaining: 0,
      retryAfterSeconds: 0,
    });
    expect((await limiterA.consume("user:bob", 1, 60)).allowed).toBe(false);
    expect((await limiterA.consume("user:alice", 1000, 3600)).allowed).toBe(true);

    clock.advance(50);
    expect(await limiterB.consume("user:alice", 25, 60)).toEqual({
      allowed: true,
      remaining: 24,
      retryAfterSeconds: 0,
    });
    clock.advance(3600);
    expect(await limiterA.purge(120)).toBeGreaterThanOrEqual(2);
    await expect(limiterA.consume("k", 0, 60)).rejects.toThrow();
  });
});

describe("generated keys", () => {
  test("a key is generated once in DATA_DIR, private, reused by every later start, and the environment wins", () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "console-keys-"));
    try {
      const first = loadOrCreateKey({ name: "AUDIT_HMAC_KEY", dataDir, generate: generateHmacKey });
      expect(first).toMatch(/^[\w-]{43}$/);
      expect(loadOrCreateKey({ name: "AUDIT_HMAC_KEY", dataDir, generate: generateHmacKey })).toBe(first);
      const file = path.join(dataDir, "keys", "audit_hmac_key");
      expect(readFileSync(file, "utf8")).toBe(first);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(
        loadOrCreateKey({ name: "AUDIT_HMAC_KEY", value: "from-env", dataDir, generate: generateHmacKey }),
      ).toBe("from-env");

      const pem = loadOrCreateKey({ name: "EVIDENCE_SIGNING_KEY", dataDir, generate: generateEd25519Pem });
      const privateKey = createPrivateKey(pem);
      expect(privateKey.asymmetricKeyType).toBe("ed25519");
      const signature = sign(null, Buffer.from("evidence"), privateKey);
      expect(verifySignature(null, Buffer.from("evidence"), createPublicKey(privateKey), signature)).toBe(
        true,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
