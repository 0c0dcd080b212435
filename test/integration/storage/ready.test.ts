/**
 * GET /api/ready on the production build: the embedded database (PGlite) and a real PostgreSQL both work inside
 * `next start`, migrations included; an unreachable database is a 503 in the error shape.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort, startConsole, type ConsoleServer } from "../../support/console-server";
import { startPostgres, type PostgresCluster } from "../../support/postgres";

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

  async function ready(env: Record<string, string> = {}) {
    const server = await startConsole(env);
    consoles.push(server);
    const response = await fetch(`${server.url}/api/ready`);
    return { status: response.status, body: (await response.json()) as unknown, server };
  }

  test("with nothing configured, the embedded database in DATA_DIR is migrated and ready", async () => {
    const { status, body } = await ready();
    expect(status).toBe(200);
    expect(body).toEqual({ status: "ready", database: "pglite" });
  });

  test("with DATABASE_URL, the PostgreSQL server is migrated and ready", async () => {
    const { status, body } = await ready({ DATABASE_URL: cluster.createDatabase() });
    expect(status).toBe(200);
    expect(body).toEqual({ status: "ready", database: "postgres" });
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
