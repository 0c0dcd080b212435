/**
 * Integration certification on one PostgreSQL shared by two console instances (docs/design.md §11): each instance's
 * sandbox finds the certification's client, records its calls under the one certification, and an armed 429
 * is taken by exactly one call whichever instance the calls reach.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import {
  createClientCertificationService,
  type ClientCertificationService,
} from "@/lib/server/client-certification/service";
import { ACTIVE_CARD } from "@/lib/shared/client-certification-contract";
import { useBackend } from "../storage/backends";

const LOCAL = { id: "local", admin: false };
const HMAC_KEY = "client-certification-test-hmac-key-0123456789";

const SIGNING_KEY = "shared-sandbox-signing-key-for-two-instances";

describe("two instances on one PostgreSQL", () => {
  const backend = useBackend("postgres");
  const services: ClientCertificationService[] = [];
  const servers: SandboxServer[] = [];

  beforeAll(async () => {
    const second = await backend.openAnother();
    for (const db of [backend.handle.db, second.db]) {
      const service = createClientCertificationService({ db, hmacKey: HMAC_KEY });
      services.push(service);
      const sandbox = createSandbox({
        basePath: "/sandbox",
        signingKey: SIGNING_KEY,
        clients: service.port(),
      });
      servers.push(await startSandboxServer({ port: 0, sandbox }));
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  test("a token from one instance works on the other; one 429 across both; every call under one certification", async () => {
    const [first, second] = services as [ClientCertificationService, ClientCertificationService];
    const started = await first.start({ id: "local", name: "Local user" }, servers[0]!.url);
    const tokenResponse = await fetch(`${servers[0]!.url}/sandbox/reporting/v1/auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        client_id: started.client_id,
        client_secret: started.client_secret,
        grant_type: "client_credentials",
      }),
    });
    const token = ((await tokenResponse.json()) as { data: { attributes: { access_token: string } } }).data
      .attributes.access_token;
    await second.arm(started.id, "rate_limited", LOCAL);
    const inquiry = (server: SandboxServer) =>
      fetch(`${server.url}/sandbox/transaction/v1/balance-inquiry`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({
          data: {
            entry_mode: "keyed",
            card_number: ACTIVE_CARD,
            pin_mode: "none",
            originator: { location_id: "s" },
          },
        }),
      }).then((response) => response.status);
    const statuses = await Promise.all([inquiry(servers[0]!), inquiry(servers[1]!), inquiry(servers[1]!)]);
    expect(statuses.sort()).toEqual([200, 200, 429]);
    await first.arm(started.id, "revoked", LOCAL);
    expect(await inquiry(servers[1]!)).toBe(401);
    const view = await second.get(started.id, LOCAL);
    expect(view.exchanges.map((call) => call.status).sort()).toEqual([200, 200, 200, 401, 429]);
  });
});
