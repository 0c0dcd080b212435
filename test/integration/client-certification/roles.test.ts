/**
 * Integration certification behind a sign-in (AUTH_MODE=proxy, docs/design.md §11): the console routes need a tester,
 * engineer or admin, while the sandbox's paths answer the certification's client with no console session at all
 * (its own OAuth is the gate). A certification is its starter's: anyone else but an admin finds none. What a
 * caller who knows only its client_id can send is test/long/client-certification/wrong-secret-flood.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  ACTIVE_CARD,
  type ClientCertificationView,
  type StartedClientCertification,
} from "@/lib/shared/client-certification-contract";
import { CardApiClient } from "@/test/support/card-api-clients";
import type { ConsoleServer } from "@/test/support/console-server";
import { proxyIdentity, startProxyConsole } from "@/test/support/proxy-console";
import { api } from "../auth/team-console.support";

const SECRET = "proxy-shared-secret-for-client-certification";
const identity = proxyIdentity(SECRET);

let server: ConsoleServer;

beforeAll(async () => {
  server = await startProxyConsole({
    secret: SECRET,
    roleGroups: "tester:certification,engineer:developers,support:support-desk,admin:console-admins",
  });
});
afterAll(() => server?.stop());

describe("client certification roles (AUTH_MODE=proxy)", () => {
  test("nobody signed in: 401; support: 403; tester and engineer may start", async () => {
    const anonymous = await api(server.url, null, "POST", "/api/client-certifications", {
      environment: "embedded",
    });
    expect(anonymous.status).toBe(401);
    const support = await api(
      server.url,
      null,
      "POST",
      "/api/client-certifications",
      { environment: "embedded" },
      identity("sam", "support-desk"),
    );
    expect(support.status).toBe(403);
    expect(support.body).toMatchObject({ error: { code: "forbidden_by_role" } });
    const engineer = await api(
      server.url,
      null,
      "POST",
      "/api/client-certifications",
      { environment: "embedded" },
      identity("eve", "developers"),
    );
    expect(engineer.status).toBe(201);
  });

  test("the application reaches the sandbox without any console session; the tester sees its calls", async () => {
    const started = await api<StartedClientCertification>(
      server.url,
      null,
      "POST",
      "/api/client-certifications",
      { environment: "embedded" },
      identity("tess", "certification"),
    );
    expect(started.status).toBe(201);
    const application = new CardApiClient({
      CARD_API_AUTH_URL: started.body.auth_url,
      CARD_API_BASE_URL: started.body.base_url,
      CARD_API_CLIENT_ID: started.body.client_id,
      CARD_API_CLIENT_SECRET: started.body.client_secret,
    });
    expect(await application.balance(ACTIVE_CARD)).toBe(200);
    const read = await api<ClientCertificationView>(
      server.url,
      null,
      "GET",
      `/api/client-certifications/${started.body.id}`,
      undefined,
      identity("tess", "certification"),
    );
    expect(read.body.exchanges.map((call) => call.status)).toEqual([200, 200]);
    expect(read.body.operator).toBe("tess");
  });

  test("a certification is its starter's: another user gets 404 on every route; the owner and an admin get 200", async () => {
    const tess = identity("tess", "certification");
    const eve = identity("eve", "developers");
    const root = identity("ada", "console-admins");
    const call = (who: Record<string, string>, method: string, path: string, body?: unknown) =>
      api(server.url, null, method, path, body, who);
    const started = await api<StartedClientCertification>(
      server.url,
      null,
      "POST",
      "/api/client-certifications",
      { environment: "embedded" },
      tess,
    );
    const base = `/api/client-certifications/${started.body.id}`;
    for (const [method, path, body] of [
      ["GET", base, undefined],
      ["POST", `${base}/steps/tokens`, {}],
      ["POST", `${base}/finish`, {}],
      ["GET", `${base}/evidence`, undefined],
    ] as const) {
      const other = await call(eve, method, path, body);
      expect({ path, status: other.status, body: other.body }).toMatchObject({
        status: 404,
        body: { error: { code: "not_found" } },
      });
    }
    const listed = (who: Record<string, string>) =>
      call(who, "GET", "/api/client-certifications").then(
        (answer) => (answer.body as unknown as { certifications: { id: string }[] }).certifications,
      );
    expect((await listed(eve)).map((item) => item.id)).not.toContain(started.body.id);
    expect((await listed(tess)).map((item) => item.id)).toContain(started.body.id);
    expect((await listed(root)).map((item) => item.id)).toContain(started.body.id);

    expect((await call(tess, "GET", base)).status).toBe(200);
    expect((await call(tess, "POST", `${base}/steps/tokens`, {})).status).toBe(200);
    expect((await call(root, "GET", base)).status).toBe(200);
    expect((await call(root, "POST", `${base}/steps/declined`, {})).status).toBe(200);
    expect((await call(tess, "POST", `${base}/finish`, {})).status).toBe(200);
    expect((await call(tess, "GET", `${base}/evidence`)).status).toBe(200);
    expect((await call(root, "GET", `${base}/evidence`)).status).toBe(200);
    expect((await call(eve, "GET", `${base}/evidence`)).status).toBe(404);
  });

  test("a faults certification's plans are its starter's too: another user's arm and end are 404", async () => {
    const tess = identity("tess", "certification");
    const eve = identity("eve", "developers");
    const started = await api<StartedClientCertification>(
      server.url,
      null,
      "POST",
      "/api/client-certifications",
      { environment: "embedded", mode: "faults", timeout_ms: 1000 },
      tess,
    );
    expect(started.status).toBe(201);
    const base = `/api/client-certifications/${started.body.id}`;
    const foreign = await api(server.url, null, "POST", `${base}/plans`, { code: "gift#1:status_500" }, eve);
    expect(foreign).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    const armed = await api<{ plan_id: string }>(
      server.url,
      null,
      "POST",
      `${base}/plans`,
      { code: "gift#1:status_500" },
      tess,
    );
    expect(armed.status).toBe(201);
    const end = `${base}/plans/${armed.body.plan_id}/end`;
    expect((await api(server.url, null, "POST", end, {}, eve)).status).toBe(404);
    const ended = await api<{ code: string; faults: { exercised: boolean }[] }>(
      server.url,
      null,
      "POST",
      end,
      { exit_code: 0 },
      tess,
    );
    expect(ended).toMatchObject({
      status: 200,
      body: { code: "gift#1:status_500", faults: [{ exercised: false }] },
    });
    const unknown = await api(
      server.url,
      null,
      "POST",
      `${base}/plans`,
      { code: "gift#1:no_such_fault" },
      tess,
    );
    expect(unknown).toMatchObject({ status: 400, body: { error: { code: "validation_failed" } } });
  });
});
