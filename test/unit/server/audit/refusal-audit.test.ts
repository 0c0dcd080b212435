/**
 * A refused call's audit row names the environment the request named (docs/design.md §7): in the body or the query,
 * else the one the role check was made in. AUTH_MODE=proxy in process, the peer stamped as a trusted proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as giftRoute from "@/app/api/inquiries/gift-balance/route";
import * as tokenRoute from "@/app/api/token/route";
import * as lookupRoute from "@/app/api/transactions/request-id/[id]/route";
import { PEER_ADDRESS_HEADER, setPeerHeaderStamped } from "@/lib/server/util/peer-address";
import { getServices } from "@/lib/server/root";
import { call, configure } from "../support";

const SECRET = "proxy-shared-secret-0123456789";
const asSupport = {
  [PEER_ADDRESS_HEADER]: "10.0.0.5",
  "x-proxy-secret": SECRET,
  "x-forwarded-user": "sam",
  "x-forwarded-groups": "desk",
};
/** Signed in through the proxy, but in no group that ROLE_GROUPS names: every console call is refused. */
const withoutRole = { ...asSupport, "x-forwarded-user": "visitor", "x-forwarded-groups": "visitors" };
const inquiry = { card_number: "6006491000000001", location_id: "store-7", environment: "embedded" };

beforeAll(() => {
  setPeerHeaderStamped(true);
  configure({
    AUTH_MODE: "proxy",
    PROXY_SHARED_SECRET: SECRET,
    TRUSTED_PROXIES: "10.0.0.0/8",
    ROLE_GROUPS: "support:desk",
  });
});
afterAll(() => setPeerHeaderStamped(false));

async function lastRefusal(operation: string) {
  const { auditLog } = await getServices();
  const { rows } = await auditLog.query({ event: "refused" });
  return rows.find((row) => row.operation === operation);
}

describe("refused calls in the audit log", () => {
  it("a role refusal records the environment the body named", async () => {
    const response = await call(giftRoute.POST, "POST", "/api/inquiries/gift-balance", {
      body: inquiry,
      headers: asSupport,
    });
    expect(response.status).toBe(403);
    expect(await lastRefusal("POST /api/inquiries/gift-balance")).toMatchObject({
      userId: "sam",
      reason: "forbidden_by_role",
      environment: "embedded",
    });
  });

  it("a role refusal without a named environment records the one the check was made in", async () => {
    const response = await call(tokenRoute.POST, "POST", "/api/token", { body: {}, headers: asSupport });
    expect(response.status).toBe(403);
    expect(await lastRefusal("POST /api/token")).toMatchObject({
      reason: "forbidden_by_role",
      environment: "embedded",
    });
  });

  it("a query's environment is recorded; a signed-out caller's refusal is summarised", async () => {
    const lookup = await call(
      lookupRoute.GET,
      "GET",
      "/api/transactions/request-id/abc?environment=embedded",
      {
        headers: withoutRole,
      },
    );
    expect(lookup.status).toBe(403);
    expect(await lastRefusal("GET /api/transactions/request-id/abc")).toMatchObject({
      environment: "embedded",
    });
    const signedOut = await call(giftRoute.POST, "POST", "/api/inquiries/gift-balance", {
      body: { ...inquiry, environment: "production" },
    });
    expect(signedOut.status).toBe(401);
    // A signed-out caller's refusal is counted into its address's summary row, not written on its own.
    const { auditLog, anonymousRefusals } = await getServices();
    const { rows } = await auditLog.query({ event: "refused" });
    expect(rows.find((row) => row.reason === "not_signed_in")).toBeUndefined();
    await anonymousRefusals.flush(true);
    const summary = await auditLog.query({ event: "anonymous_refusals" });
    expect(summary.rows[0]).toMatchObject({ userId: null, reason: "not_signed_in", details: { count: 1 } });
  });
});
