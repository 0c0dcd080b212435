/**
 * Integration certification behind a sign-in (AUTH_MODE=proxy, DESIGN.md §11): the console routes need a tester,
 * engineer or admin, while the sandbox's paths answer the certification's client with no console session at all
 * (its own OAuth is the gate).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  ACTIVE_CARD,
  type ClientCertificationView,
  type StartedClientCertification,
} from "@/lib/shared/client-certification-contract";
import { CardApiClient } from "@/test/support/card-api-clients";
import { startConsole, type ConsoleServer } from "@/test/support/console-server";
import { api } from "../auth/team-console.support";

const SECRET = "proxy-shared-secret-for-client-certification";
const identity = (user: string, groups: string) => ({
  "X-Forwarded-User": user,
  "X-Forwarded-Groups": groups,
  "X-Proxy-Secret": SECRET,
});

let server: ConsoleServer;

beforeAll(async () => {
  server = await startConsole({
    AUTH_MODE: "proxy",
    HOSTNAME: "127.0.0.1",
    PROXY_SHARED_SECRET: SECRET,
    TRUSTED_PROXIES: "127.0.0.1/32,::1/128",
    ROLE_GROUPS: "tester:certification,engineer:developers,support:support-desk",
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
});
