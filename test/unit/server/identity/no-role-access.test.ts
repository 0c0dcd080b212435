/**
 * A signed-in user without a console role gets nothing but the no-role page (docs/design.md §6): not the session's
 * description (upstream addresses, the server-held client_id), not its end, not an environment switch.
 * AUTH_MODE=proxy in process, the peer stamped as a trusted proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/api/session/route";
import * as environmentRoute from "@/app/api/session/environment/route";
import * as meRoute from "@/app/api/me/route";
import { PEER_ADDRESS_HEADER, setPeerHeaderStamped } from "@/lib/server/util/peer-address";
import { call, configure, readJson } from "../support";

const SECRET = "proxy-shared-secret-0123456789";
const as = (user: string, groups: string) => ({
  [PEER_ADDRESS_HEADER]: "10.0.0.5",
  "x-proxy-secret": SECRET,
  "x-forwarded-user": user,
  "x-forwarded-groups": groups,
});
const noRole = as("nora", "finance");

beforeAll(() => {
  setPeerHeaderStamped(true);
  configure({
    AUTH_MODE: "proxy",
    PROXY_SHARED_SECRET: SECRET,
    TRUSTED_PROXIES: "10.0.0.0/8",
    ROLE_GROUPS: "support:desk",
    CARD_API_CLIENT_ID: "server-held-client",
    CARD_API_CLIENT_SECRET: "server-held-secret",
    CARD_API_AUTH_URL: "https://auth.internal.example",
    CARD_API_SANDBOX_URL: "https://sandbox.internal.example",
  });
});
afterAll(() => setPeerHeaderStamped(false));

describe("a signed-in user without a role", () => {
  it("cannot read GET /api/session (addresses, client_id)", async () => {
    const response = await call(sessionRoute.GET, "GET", "/api/session", { headers: noRole });
    expect(response.status).toBe(403);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: "forbidden_by_role" } });
    expect(text).not.toContain("server-held-client");
    expect(text).not.toContain("internal.example");
  });

  it("cannot call DELETE /api/session or switch the environment", async () => {
    const ended = await call(sessionRoute.DELETE, "DELETE", "/api/session", { headers: noRole });
    expect(ended.status).toBe(403);
    expect(await readJson(ended)).toMatchObject({ error: { code: "forbidden_by_role" } });
    const switched = await call(environmentRoute.PUT, "PUT", "/api/session/environment", {
      headers: noRole,
      body: { environment: "embedded" },
    });
    expect(switched.status).toBe(403);
  });

  it("still learns who they are from /api/me, and a user with a role still reads the session", async () => {
    const me = await call(meRoute.GET, "GET", "/api/me", { headers: noRole });
    expect(await readJson(me)).toMatchObject({ user: { id: "nora", roles: [] } });
    const support = await call(sessionRoute.GET, "GET", "/api/session", { headers: as("sam", "desk") });
    expect(support.status).toBe(200);
  });
});
