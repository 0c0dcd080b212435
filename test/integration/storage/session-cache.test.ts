/**
 * The session store's in-memory rows: a live row is served without reading the database, an end on any instance
 * reaches every instance's cache (in-process with PGlite, by NOTIFY with PostgreSQL), and while an instance's
 * LISTEN connection is down it reads every row from the database again, dropping what it cached before.
 */
import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import type { DatabaseHandle } from "@/lib/server/database";
import { feedKey } from "@/lib/server/session/store-cache";
import { createSessionStore } from "@/lib/server/session/store";
import { BACKENDS, useBackend } from "./backends";

const options = { idleSeconds: 900, absoluteSeconds: 28_800, touchEverySeconds: 60 };

const storeOn = (handle: DatabaseHandle) =>
  createSessionStore({ db: handle.db, feed: handle.sessionFeed, ...options });

/** Resolves when `handle`'s feed delivers the end of session `id`. */
function endDelivered(handle: DatabaseHandle, id: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = handle.sessionFeed.subscribe((key) => {
      if (key !== feedKey(id)) return;
      stop();
      resolve();
    });
  });
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.each(BACKENDS)("session cache on %s", (kind) => {
  const backend = useBackend(kind);

  test("a live row is served from memory; an end on another store of the database reaches it", async () => {
    const a = storeOn(backend.handle);
    const other = kind === "postgres" ? await backend.openAnother() : backend.handle;
    const b = storeOn(other);
    const session = await a.create({ userId: "gina", roles: ["tester"] });
    expect(await a.getIfLive(session.id)).toMatchObject({ userId: "gina" });

    // Gone from the table behind the store's back: the cached row still answers, so no row was read.
    const kept = await a.create({ userId: "hank", roles: [] });
    expect(await a.getIfLive(kept.id)).not.toBeNull();
    await backend.handle.db.execute(sql`delete from sessions where id = ${kept.id}`);
    expect(await a.getIfLive(kept.id)).toMatchObject({ userId: "hank" });

    const delivered = endDelivered(backend.handle, session.id);
    expect(await b.end(session.id, "signed_out")).toBe(true);
    await delivered;
    expect(await a.getIfLive(session.id)).toBeNull();
    expect(await a.check(session.id)).toEqual({ over: true, reason: "signed_out" });
  });

  test("an instance's own sign-out and a user's revocation end its cached rows", async () => {
    const a = storeOn(backend.handle);
    const one = await a.create({ userId: "ivan", roles: ["admin"] });
    const two = await a.create({ userId: "ivan", roles: ["admin"] });
    expect(await a.getIfLive(one.id)).not.toBeNull();
    expect(await a.getIfLive(two.id)).not.toBeNull();
    expect(await a.end(one.id, "signed_out")).toBe(true);
    expect(await a.getIfLive(one.id)).toBeNull();
    expect(await a.endAllForUser("ivan")).toBe(1);
    expect(await a.getIfLive(two.id)).toBeNull();
  });

  if (kind === "postgres")
    test("while the LISTEN connection is down every row is read from the database, and the cache restarts empty", async () => {
      const a = storeOn(backend.handle);
      const other = await backend.openAnother();
      const b = storeOn(other);
      const session = await a.create({ userId: "judy", roles: ["engineer"] });
      const later = await a.create({ userId: "kim", roles: ["engineer"] });
      expect(await a.getIfLive(session.id)).not.toBeNull();
      expect(await a.getIfLive(later.id)).not.toBeNull();
      const generation = backend.handle.sessionFeed.generation();

      await other.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
            where application_name = 'card-services-console session feed'`,
      );
      await until(() => !backend.handle.sessionFeed.live());
      // Its NOTIFY may reach nobody: instance A must read the row.
      expect(await b.end(session.id, "signed_out")).toBe(true);
      expect(await a.getIfLive(session.id)).toBeNull();

      await until(() => backend.handle.sessionFeed.live() && other.sessionFeed.live());
      expect(backend.handle.sessionFeed.generation()).toBeGreaterThan(generation);
      // What was cached before the outage is not trusted: a row deleted meanwhile is read as gone.
      await other.db.execute(sql`delete from sessions where id = ${later.id}`);
      expect(await a.getIfLive(later.id)).toBeNull();
    });
});
