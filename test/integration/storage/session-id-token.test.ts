/**
 * AUTH_MODE=oidc keeps the provider's ID token in the session's server-side row (never in the cookie), for the
 * id_token_hint of the provider sign-out; ending the session drops it. Both backends.
 */
import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { queryRows } from "@/lib/server/database/rows";
import { createSessionStore } from "@/lib/server/session/store";
import { BACKENDS, useBackend } from "./backends";

describe.each(BACKENDS)("the ID token of a session on %s", (kind) => {
  const backend = useBackend(kind);

  test("is kept with the live session, and dropped when it ends (sign-out, revocation)", async () => {
    const store = createSessionStore({ db: backend.handle.db, idleSeconds: 900, absoluteSeconds: 3600 });
    const signedIn = await store.create({ userId: "alice", roles: ["admin"], idToken: "header.claims.sig" });
    const local = await store.create({ userId: "bob", roles: ["admin"] });
    expect(await store.idToken(signedIn.id)).toBe("header.claims.sig");
    expect(await store.idToken(local.id)).toBeNull();

    expect(await store.end(signedIn.id, "signed_out")).toBe(true);
    expect(await store.idToken(signedIn.id)).toBeNull();
    const revoked = await store.create({ userId: "carol", roles: [], idToken: "other.token.sig" });
    expect(await store.endAllForUser("carol")).toBe(1);
    const stored = await queryRows<{ id_token: string | null }>(
      backend.handle.db,
      sql`select id_token from sessions where id in (${signedIn.id}, ${revoked.id})`,
    );
    expect(stored.map((row) => row.id_token)).toEqual([null, null]);
  });
});
