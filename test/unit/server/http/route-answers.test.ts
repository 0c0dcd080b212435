/**
 * A route's declared answers (lib/server/routes) are what its handler returns: every route declares
 * its success answer, every JSON one with a schema, and real calls, in-process against the embedded sandbox,
 * answer bodies their declared schema accepts. The compiler checks a handler's `json(...)` against the same
 * schemas (lib/server/http/route.ts `DeclaredResponse`); these calls check what the types cannot see.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as auditRoute from "@/app/api/audit/route";
import * as auditVerifyRoute from "@/app/api/audit/verify/route";
import * as logoutRoute from "@/app/api/auth/logout/route";
import * as adminSessionsRoute from "@/app/api/admin/sessions/route";
import * as suspensionsRoute from "@/app/api/admin/suspensions/route";
import * as certificationRunsRoute from "@/app/api/certification/runs/route";
import * as clientCertificationsRoute from "@/app/api/client-certifications/route";
import * as healthRoute from "@/app/api/health/route";
import * as balanceRoute from "@/app/api/inquiries/balance/route";
import * as giftRoute from "@/app/api/inquiries/gift-balance/route";
import * as meRoute from "@/app/api/me/route";
import * as monitorsRoute from "@/app/api/monitors/route";
import * as runsRoute from "@/app/api/runs/route";
import * as runRoute from "@/app/api/runs/[id]/route";
import * as credentialsRoute from "@/app/api/session/credentials/route";
import * as sessionRoute from "@/app/api/session/route";
import * as batchesRoute from "@/app/api/support/batches/route";
import * as testCardsRoute from "@/app/api/test-cards/route";
import * as tokenRoute from "@/app/api/token/route";
import * as lookupRoute from "@/app/api/transactions/request-id/[id]/route";
import { ROUTE_METHODS, type DeclaredRoute } from "@/lib/server/http/declaration";
import { declarationOf } from "@/lib/server/http/route-methods";
import { CATCH_ALL, ROUTES } from "@/lib/server/routes";
import { getEmbeddedSandbox } from "@/lib/server/root/embedded-sandbox";
import { apiRoute, json } from "@/lib/server/root/route";
import { PEER_ADDRESS_HEADER, setPeerHeaderStamped } from "@/lib/server/util/peer-address";
import { call, configure, CookieJar, type CallOptions } from "../support";

/** JSON answers the document does not describe: a document and files for another tool. */
const UNDESCRIBED = new Set([
  "GET /api/openapi.json",
  "GET /api/postman-collection.json",
  "GET /api/postman-environment.json",
]);

const declared = Object.values(ROUTES as Record<string, DeclaredRoute>)
  .filter((route) => route.template !== CATCH_ALL)
  .flatMap((route) => ROUTE_METHODS.flatMap((method) => (route[method] ? [route[method]] : [])));

describe("the declared answers", () => {
  it.each(declared.map((declaration) => [`${declaration.method} ${declaration.template}`, declaration]))(
    "%s declares its success answer, and a JSON one with its schema",
    (name, declaration) => {
      const success = Object.entries(declaration.answers).filter(([status]) => Number(status) < 400);
      expect(success.length, name).toBeGreaterThan(0);
      for (const [status, answer] of success) {
        const isJson = (answer.media ?? "application/json") === "application/json";
        if (isJson && Number(status) < 300 && !UNDESCRIBED.has(name))
          expect(answer.schema, `${name} ${status}`).toBeDefined();
      }
    },
  );
});

describe("a handler's answer, typed from its declaration", () => {
  it("compiles only with a declared status and a body its schema accepts", () => {
    const health = ROUTES["/api/health"].GET;
    const ready = ROUTES["/api/ready"].GET;
    // Each line is checked by tsc (npx tsc --noEmit): an expected error that does not happen fails it.
    apiRoute(health, async () => json({ status: "ok" }));
    // @ts-expect-error -- the declared answer is {"status": "ok"}
    apiRoute(health, async () => json({ status: "down" }));
    // @ts-expect-error -- 201 is not a declared answer
    apiRoute(health, async () => json({ status: "ok" }, 201));
    // @ts-expect-error -- the 503 answer is the error shape, not the 200's body
    apiRoute(ready, async () => json({ status: "ready", database: "pglite" }, 503));
    apiRoute(ready, async () => json({ error: { code: "not_ready", message: "Not yet." } }, 503));
    // A literal array in the body meets a declared array, also when the answer is made before it is returned.
    apiRoute(ROUTES["/api/audit"].GET, async () => {
      const answer = json({ rows: [], next_cursor: null });
      return answer;
    });
    // A Response that is not `json`'s (a redirect, a file) is not typed, as a route without a schema is not.
    apiRoute(health, async () => new Response(null, { status: 204 }));
  });
});

type Handler = (request: Request) => Promise<Response>;

const SECRET = "proxy-shared-secret-0123456789";
/** A team console's member with every role (AUTH_MODE=proxy): the server keeps their runs. */
const MEMBER = {
  [PEER_ADDRESS_HEADER]: "10.0.0.5",
  "x-proxy-secret": SECRET,
  "x-forwarded-user": "ada",
  "x-forwarded-groups": "team",
};

/** Calls `handler` as MEMBER and checks its answer against the schema declared for the status it gave. */
async function answered(handler: Handler, path: string, options: CallOptions = {}, jar?: CookieJar) {
  const declaration = declarationOf(handler)!;
  const request = { ...options, headers: { ...MEMBER, ...options.headers } };
  const response = await call(handler, declaration.method, path, request, jar);
  const name = `${declaration.method} ${declaration.template} ${response.status}`;
  const answer = declaration.answers[response.status];
  expect(answer?.schema, `${name}: no declared schema`).toBeDefined();
  const body: unknown = await response.json();
  const parsed = answer!.schema!.safeParse(body);
  expect(parsed.error?.issues ?? [], name).toEqual([]);
  return body;
}

describe("real answers validate against their declared schemas", () => {
  const jar = new CookieJar();
  const card = { card_number: "6006491000000001", location_id: "store-001" };

  beforeAll(async () => {
    setPeerHeaderStamped(true);
    configure({
      AUTH_MODE: "proxy",
      PROXY_SHARED_SECRET: SECRET,
      TRUSTED_PROXIES: "10.0.0.0/8",
      ROLE_GROUPS: "admin:team,engineer:team,tester:team,support:team",
    });
    getEmbeddedSandbox().reset();
    await answered(credentialsRoute.PUT, "/api/session/credentials", { body: { profile: "demo" } }, jar);
  });
  afterAll(() => setPeerHeaderStamped(false));

  it("the session, the token and the inquiries", async () => {
    await answered(healthRoute.GET, "/api/health");
    await answered(meRoute.GET, "/api/me", {}, jar);
    await answered(sessionRoute.GET, "/api/session", {}, jar);
    await answered(tokenRoute.POST, "/api/token", { body: {} }, jar);
    await answered(balanceRoute.POST, "/api/inquiries/balance", { body: card }, jar);
    const gift = (await answered(giftRoute.POST, "/api/inquiries/gift-balance", { body: card }, jar)) as {
      request_id: string;
    };
    await answered(lookupRoute.GET, `/api/transactions/request-id/${gift.request_id}`, {}, jar);
    await answered(testCardsRoute.GET, "/api/test-cards?environment=embedded", {}, jar);
  });

  it("the team's runs, once the inquiry's run is written", async () => {
    await answered(balanceRoute.POST, "/api/inquiries/balance", { body: card }, jar);
    let runs: { id: string }[] = [];
    await expect
      .poll(
        async () => {
          runs = ((await answered(runsRoute.GET, "/api/runs", {}, jar)) as { runs: { id: string }[] }).runs;
          return runs.length;
        },
        // The writer keeps runs in windows of 50 ms, off the answer's path; a loaded machine takes longer.
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    await answered(runRoute.GET, `/api/runs/${runs[0]!.id}`, {}, jar);
  });

  it("the admin's, the tester's and the support desk's lists", async () => {
    await answered(auditRoute.GET, "/api/audit", {}, jar);
    await answered(auditVerifyRoute.GET, "/api/audit/verify", {}, jar);
    await answered(adminSessionsRoute.GET, "/api/admin/sessions", {}, jar);
    await answered(suspensionsRoute.GET, "/api/admin/suspensions", {}, jar);
    await answered(monitorsRoute.GET, "/api/monitors", {}, jar);
    await answered(certificationRunsRoute.GET, "/api/certification/runs", {}, jar);
    await answered(clientCertificationsRoute.GET, "/api/client-certifications", {}, jar);
    await answered(batchesRoute.GET, "/api/support/batches", {}, jar);
  });

  it("signing out", async () => {
    await answered(logoutRoute.POST, "/api/auth/logout", { body: {} }, jar);
  });
});
