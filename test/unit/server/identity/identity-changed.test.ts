/**
 * A page sends the key of the user it was loaded for (`X-Console-User`, from GET /api/me); when the reverse
 * proxy now names someone else, the call is refused (409 `identity_changed`) before it does anything, so Alice's
 * lookup never goes out with the ticket Sam typed. AUTH_MODE=proxy in process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as meRoute from "@/app/api/me/route";
import * as sessionRoute from "@/app/api/session/route";
import * as lookupRoute from "@/app/api/support/lookups/route";
import { PEER_ADDRESS_HEADER, setPeerHeaderStamped } from "@/lib/server/util/peer-address";
import { getServices } from "@/lib/server/root";
import { call, configure, readJson } from "../support";

const SECRET = "proxy-shared-secret-0123456789";
const as = (user: string, groups: string, extra: Record<string, string> = {}) => ({
  [PEER_ADDRESS_HEADER]: "10.0.0.5",
  "x-proxy-secret": SECRET,
  "x-forwarded-user": user,
  "x-forwarded-groups": groups,
  ...extra,
});

beforeAll(() => {
  setPeerHeaderStamped(true);
  configure({
    AUTH_MODE: "proxy",
    PROXY_SHARED_SECRET: SECRET,
    TRUSTED_PROXIES: "10.0.0.0/8",
    ROLE_GROUPS: "support:desk,admin:admins",
  });
});
afterAll(() => setPeerHeaderStamped(false));

async function keyOf(user: string, groups: string): Promise<string> {
  const me = await readJson<{ user: { key: string } }>(
    await call(meRoute.GET, "GET", "/api/me", { headers: as(user, groups) }),
  );
  return me.user.key;
}

describe("the user a page was loaded for", () => {
  it("is an opaque key in /api/me, not the user's id", async () => {
    const sam = await keyOf("sam@example.test", "desk");
    expect(sam).toMatch(/^[0-9a-f]{32}$/);
    expect(sam).not.toContain("sam");
    expect(await keyOf("alice@example.test", "admins")).not.toBe(sam);
  });

  it("a call made for Sam while the proxy now names Alice is refused, and nothing is looked up", async () => {
    const sam = await keyOf("sam@example.test", "desk");
    const refused = await call(lookupRoute.POST, "POST", "/api/support/lookups", {
      headers: as("alice@example.test", "admins", { "x-console-user": sam }),
      body: { card_number: "6006491000000001", reason: "TICKET-SAM-123" },
    });
    expect(refused.status).toBe(409);
    expect(await readJson(refused)).toMatchObject({ error: { code: "identity_changed" } });
    const { auditLog } = await getServices();
    const { rows } = await auditLog.query({});
    expect(rows.some((row) => row.reason === "TICKET-SAM-123" && row.event !== "refused")).toBe(false);
  });

  it("the caller's own key, or none (a script), is served", async () => {
    const alice = await keyOf("alice@example.test", "admins");
    const own = await call(sessionRoute.GET, "GET", "/api/session", {
      headers: as("alice@example.test", "admins", { "x-console-user": alice }),
    });
    expect(own.status).toBe(200);
    const none = await call(sessionRoute.GET, "GET", "/api/session", {
      headers: as("alice@example.test", "admins"),
    });
    expect(none.status).toBe(200);
  });
});
