/**
 * Integration certification over the console's HTTP interface (docs/design.md §11), as a CI suite runs it: start a
 * certification, point the application at the credentials, arm each step through the routes, finish, keep the
 * bundle. Also the reference integration: the console's own server-side client (the code behind
 * /api/inquiries/*) goes through a certification and passes every check.
 */
import { randomUUID } from "node:crypto";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, test } from "vitest";
import { verifyEvidence } from "@/lib/server/certification/evidence/verify";
import {
  ACTIVE_CARD,
  INACTIVE_CARD,
  type ClientCertificationView,
  type ClientStepId,
  type StartedClientCertification,
} from "@/lib/shared/client-certification-contract";
import { CardApiClient } from "../../support/card-api-clients";
import { CertificationDriver, expectAllPass } from "../../support/client-certification";
import { sharedConsole, type ConsoleServer } from "../../support/console-server";
import { ConsoleClient } from "@/test/support/http-client";

let server: ConsoleServer;

beforeAll(async () => {
  // The console's own client gives up after 1.5 s: the timeout step needs no 30 s wait.
  server = await sharedConsole("short-timeout");
});

async function startCertification(certification: CertificationDriver): Promise<StartedClientCertification> {
  const started = await certification.start();
  expect(started).toMatchObject({ status: "waiting", auth_url: `${server.url}/sandbox` });
  return started;
}

async function finishAndDownload(certification: CertificationDriver, started: StartedClientCertification) {
  const view = await certification.finish(started.id);
  const { zip, response } = await certification.evidence(started.id);
  expect(response.headers.get("content-type")).toBe("application/zip");
  return { view, zip };
}

describe("integration certification through the console's routes", () => {
  test("CI recipe: start, run the application's suite through the steps, finish, keep a bundle that verifies", async () => {
    const certification = new CertificationDriver(server.url);
    const { tester } = certification;
    const started = await startCertification(certification);
    const arm = (id: string, step: ClientStepId) => certification.arm(id, step);
    const application = new CardApiClient({
      CARD_API_AUTH_URL: started.auth_url,
      CARD_API_BASE_URL: started.base_url,
      CARD_API_CLIENT_ID: started.client_id,
      CARD_API_CLIENT_SECRET: started.client_secret,
    });
    await arm(started.id, "tokens");
    for (let call = 0; call < 3; call += 1) expect(await application.balance(ACTIVE_CARD)).toBe(200);
    await arm(started.id, "declined");
    await application.gift(INACTIVE_CARD);
    await arm(started.id, "revoked");
    expect((await application.gift(ACTIVE_CARD)).status).toBe(201);
    await arm(started.id, "timeout");
    expect((await application.gift(ACTIVE_CARD)).status).toBe(200);
    await arm(started.id, "rate_limited");
    await application.balance(ACTIVE_CARD);
    await application.balance(ACTIVE_CARD);

    const read = await tester.json<ClientCertificationView>(
      "GET",
      `/api/client-certifications/${started.id}`,
    );
    expect(read.body.exchanges.length).toBeGreaterThanOrEqual(12);
    expect(JSON.stringify(read.body)).not.toContain(started.client_secret);

    const { view, zip } = await finishAndDownload(certification, started);
    expect(view.status).toBe("done");
    expectAllPass(view);
    expect((await verifyEvidence(zip)).ok).toBe(true);
    for (const [name, bytes] of Object.entries(unzipSync(zip))) {
      expect(strFromU8(bytes), name).not.toContain(started.client_secret);
    }
    // The client dies with the certification.
    await expect(application.balance(ACTIVE_CARD)).rejects.toThrow(/token request answered 400/);
    expect(server.logs()).not.toContain(started.client_secret);
    const audit = await tester.json<{ rows: { event: string }[] }>("GET", "/api/audit?limit=200");
    const events = new Set(audit.body.rows.map((row) => row.event));
    for (const event of [
      "client_certification_started",
      "client_certification_step_armed",
      "client_certification_finished",
      "client_certification_evidence_downloaded",
    ])
      expect(events).toContain(event);
  });

  test("the console's own server-side client (behind /api/inquiries/*) passes every check", async () => {
    const certification = new CertificationDriver(server.url);
    const started = await startCertification(certification);
    const arm = (id: string, step: ClientStepId) => certification.arm(id, step);
    const user = new ConsoleClient(server.url);
    const credentials = await user.json("PUT", "/api/session/credentials", {
      body: { client_id: started.client_id, client_secret: started.client_secret },
    });
    expect(credentials.status).toBe(200);
    const inquiry = (operation: "balance" | "gift-balance", card: string, requestId?: string) =>
      user.json<{ response: { status: number; headers: Record<string, string> } }>(
        "POST",
        `/api/inquiries/${operation}`,
        {
          body: {
            card_number: card,
            location_id: "store-1",
            environment: "embedded",
            ...(requestId ? { request_id: requestId } : {}),
          },
        },
      );

    await arm(started.id, "tokens");
    for (let call = 0; call < 3; call += 1) expect((await inquiry("balance", ACTIVE_CARD)).status).toBe(200);
    await arm(started.id, "declined");
    expect((await inquiry("gift-balance", INACTIVE_CARD)).status).toBe(200);
    await arm(started.id, "revoked");
    const renewed = await inquiry("gift-balance", ACTIVE_CARD);
    expect(renewed.body.response.status).toBe(201);
    await arm(started.id, "timeout");
    const requestId = randomUUID();
    expect((await inquiry("gift-balance", ACTIVE_CARD, requestId)).status).toBe(504);
    // What the console's user does after no answer: Lookup Transaction by Request Id.
    const lookup = await user.json("GET", `/api/transactions/request-id/${requestId}?environment=embedded`);
    expect(lookup.status).toBe(200);
    await arm(started.id, "rate_limited");
    const limited = await inquiry("balance", ACTIVE_CARD);
    const retryAfter = Number(limited.body.response.headers["retry-after"] ?? 0);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    await inquiry("balance", ACTIVE_CARD);

    const { view } = await finishAndDownload(certification, started);
    expectAllPass(view);
  });
});
