/**
 * Two console instances as compose.yaml runs them (standalone servers on one real PostgreSQL, the standalone
 * sandbox as upstream, a round-robin load balancer in front): both are ready on the one database, which was
 * migrated once; a session started on one instance works on the other, call after call; and when one instance
 * stops, the other carries the same session on (its earlier work still found upstream).
 *
 * Still to come with the sign-in, audit, certification and support branches (harness ready in
 * test/support/instances.ts): sign-out on one ends the session on both; the audit log holds both instances' rows
 * in one unbroken chain; a certification run started on one is readable on the other; a batch survives the loss
 * of the instance running it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ExchangeRecord, SessionInfo, TokenResult } from "@/lib/api/contracts";
import { startDeployment, type Deployment } from "../../support/instances";
import { ConsoleClient } from "../server/http-client";

const root = path.resolve(__dirname, "../../..");
const CARD = { card_number: "6006491000000001", location_id: "store-1" };

describe("two console instances behind a load balancer, on one PostgreSQL", () => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await startDeployment({ instances: 2 });
  });
  afterAll(async () => {
    await deployment?.stop();
  });

  test("both are ready on the one database, migrated once", async () => {
    for (const instance of deployment.consoles) {
      const response = await fetch(`${instance.url}/api/ready`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: "ready", database: "postgres" });
    }
    const journal = JSON.parse(readFileSync(path.join(root, "db/migrations/meta/_journal.json"), "utf8")) as {
      entries: unknown[];
    };
    const applied = deployment.postgres.psql(
      deployment.databaseUrl,
      "select count(*) from schema_migrations",
    );
    expect(Number(applied.trim())).toBe(journal.entries.length);
  });

  test("a session started on one instance works on the other, and one instance stopping loses nothing", async () => {
    const client = new ConsoleClient(deployment.balancer.url);
    const first = deployment.consoles[0]!;
    const answered = () =>
      deployment.consoles.map((instance) => deployment.balancer.answered.get(instance.url) ?? 0);
    const before = answered();

    const credentials = await client.json<SessionInfo>("PUT", "/api/session/credentials", {
      body: { client_id: "demo-client", client_secret: "demo-secret" },
    });
    expect(credentials.status).toBe(200);
    const token = await client.json<TokenResult>("POST", "/api/token", { body: {} });
    expect(token.status).toBe(200);
    expect(token.body.token).not.toBeNull();
    const gift = await client.json<ExchangeRecord>("POST", "/api/inquiries/gift-balance", { body: CARD });
    expect(gift.status).toBe(200);
    expect(gift.body.response.status).toBe(201);
    const balance = await client.json<ExchangeRecord>("POST", "/api/inquiries/balance", { body: CARD });
    expect(balance.status).toBe(200);
    expect(balance.body.response.status).toBe(200);

    // The balancer alternated: each instance answered two of the four calls, with the session either started.
    expect(answered().map((count, index) => count - before[index]!)).toEqual([2, 2]);

    // One instance stops (SIGTERM, as an orchestrator scales down): it drains and exits 0…
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    // …and the other carries the same session on, finding the transaction recorded through the first one.
    const lookup = await client.json<ExchangeRecord>(
      "GET",
      `/api/transactions/request-id/${encodeURIComponent(gift.body.request_id!)}`,
    );
    expect(lookup.status).toBe(200);
    expect(lookup.body.response.status).toBe(200);
    const session = await client.json<SessionInfo>("GET", "/api/session");
    expect(session.body.credentials).toMatchObject({ source: "session", client_id: "demo-client" });
    expect(session.body.token?.fingerprint).toBe(token.body.token?.fingerprint);
  });
});
