/**
 * GET /api/ready on the production build: the embedded database (PGlite) and a real PostgreSQL both work inside
 * the console's server, migrations included; an unreachable database, or a shared database with per-process
 * secrets, is a 503 in the error shape with every reason.
 */
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort, sharedConsole, startConsole, type ConsoleServer } from "../../support/console-server";
import { startPostgres, type PostgresCluster } from "../../support/postgres";

/** What every instance sharing one database must share (docs/design.md §10). */
const SHARED_SECRETS = {
  AUDIT_HMAC_KEY: "audit-hmac-key-for-tests-0123456789abcdef",
  EVIDENCE_SIGNING_KEY: generateKeyPairSync("ed25519")
    .privateKey.export({ type: "pkcs8", format: "pem" })
    .toString(),
  SANDBOX_SIGNING_KEY: "sandbox-signing-key-for-tests-0123456789",
};

describe("GET /api/ready", () => {
  let cluster: PostgresCluster;
  const consoles: ConsoleServer[] = [];
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(async () => {
    await Promise.all(consoles.map((server) => server.stop()));
    await cluster?.stop();
  });

  async function ready(env: Record<string, string>) {
    const server = await startConsole(env);
    consoles.push(server);
    const response = await fetch(`${server.url}/api/ready`);
    return { status: response.status, body: (await response.json()) as unknown, server };
  }

  test("with nothing configured, the embedded database in DATA_DIR is migrated and ready", async () => {
    // The run's shared console is one with nothing configured but lifted rate limits.
    const response = await fetch(`${(await sharedConsole()).url}/api/ready`);
    const [status, body] = [response.status, (await response.json()) as unknown];
    expect(status).toBe(200);
    expect(body).toEqual({ status: "ready", database: "pglite" });
  });

  test("with DATABASE_URL and every shared secret set, the PostgreSQL server is migrated and ready", async () => {
    const { status, body } = await ready({ DATABASE_URL: cluster.createDatabase(), ...SHARED_SECRETS });
    expect(status).toBe(200);
    expect(body).toEqual({ status: "ready", database: "postgres" });
  });

  test("with DATABASE_URL, a secret this instance would make up for itself is a 503 naming it", async () => {
    const { status, body } = await ready({
      DATABASE_URL: cluster.createDatabase(),
      SESSION_SECRET: "",
      AUDIT_HMAC_KEY: SHARED_SECRETS.AUDIT_HMAC_KEY,
    });
    expect(status).toBe(503);
    const reasons = (body as { error: { details: { reasons: string[] } } }).error.details.reasons;
    expect(body).toMatchObject({
      error: { code: "not_ready", message: expect.stringMatching(/SESSION_SECRET/) },
    });
    expect(reasons.map((reason) => reason.split(" ")[0])).toEqual([
      "SESSION_SECRET",
      "EVIDENCE_SIGNING_KEY",
      "SANDBOX_SIGNING_KEY",
    ]);
  });

  test("an unreachable database is 503 not_ready, without the URL's password", async () => {
    const port = await freePort();
    const { status, body, server } = await ready({
      DATABASE_URL: `postgres://console:hunter2-pw@127.0.0.1:${port}/x`,
    });
    expect(status).toBe(503);
    expect(body).toMatchObject({
      error: { code: "not_ready", message: expect.stringMatching(/database unreachable/) },
    });
    expect(JSON.stringify(body)).not.toContain("hunter2-pw");
    expect(server.logs()).not.toContain("hunter2-pw");
  });
});
