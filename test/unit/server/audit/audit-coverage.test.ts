/**
 * Actions that must reach the audit log (docs/design.md §7), in process with AUTH_MODE=proxy: a certification run's
 * own upstream calls, run views, uploads to verify, batch result downloads (JSON and CSV), probing another user's
 * batch (404), and a sign-out's `credentials_forgotten` kept readable.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runRoute from "@/app/api/certification/runs/[id]/route";
import * as runsRoute from "@/app/api/certification/runs/route";
import * as verifyRoute from "@/app/api/certification/verify/route";
import * as credentialsRoute from "@/app/api/session/credentials/route";
import * as sessionRoute from "@/app/api/session/route";
import * as batchRoute from "@/app/api/support/batches/[id]/route";
import * as resultsCsvRoute from "@/app/api/support/batches/[id]/results.csv/route";
import * as resultsRoute from "@/app/api/support/batches/[id]/results/route";
import * as batchesRoute from "@/app/api/support/batches/route";
import type { AuditEventName } from "@/lib/shared/audit-events";
import { PEER_ADDRESS_HEADER, setPeerHeaderStamped } from "@/lib/server/util/peer-address";
import { getServices } from "@/lib/server/root";
import { call, configure, CookieJar, readJson, saveDemoCredentials } from "../support";

const SECRET = "proxy-shared-secret-0123456789";
const as = (user: string, groups: string) => ({
  [PEER_ADDRESS_HEADER]: "10.0.0.5",
  "x-proxy-secret": SECRET,
  "x-forwarded-user": user,
  "x-forwarded-groups": groups,
});
const ADA = as("ada", "admins");
const SAM = as("sam", "desk,admins");
const EVE = as("eve", "desk");

beforeAll(() => {
  setPeerHeaderStamped(true);
  configure({
    AUTH_MODE: "proxy",
    PROXY_SHARED_SECRET: SECRET,
    TRUSTED_PROXIES: "10.0.0.0/8",
    ROLE_GROUPS: "admin:admins,support:desk",
  });
});
afterAll(() => setPeerHeaderStamped(false));

async function rows(event: AuditEventName) {
  const { auditLog } = await getServices();
  return (await auditLog.query({ event })).rows;
}

/** Polls until `check` holds: what is observable, never a fixed sleep. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("audited actions", () => {
  it("a certification run's upstream calls and its views are audited", async () => {
    const jar = new CookieJar();
    const demo = await call(
      credentialsRoute.PUT,
      "PUT",
      "/api/session/credentials",
      {
        body: { profile: "demo" },
        headers: ADA,
      },
      jar,
    );
    expect(demo.status).toBe(200);
    const started = await call(
      runsRoute.POST,
      "POST",
      "/api/certification/runs",
      {
        body: { environment: "embedded", cases: ["TOK-01"] },
        headers: ADA,
      },
      jar,
    );
    expect(started.status).toBe(202);
    const { id } = await readJson<{ id: string }>(started);
    const calls = await eventually(
      () => rows("certification_upstream_call"),
      (found) => found.some((row) => row.details?.run_id === id),
    );
    expect(calls.find((row) => row.details?.run_id === id)).toMatchObject({
      userId: "ada",
      environment: "embedded",
      operation: "token",
      details: { case_id: "TOK-01" },
    });
    const view = await call(runRoute.GET, "GET", `/api/certification/runs/${id}`, { headers: ADA }, jar);
    expect(view.status).toBe(200);
    expect((await rows("certification_run_viewed"))[0]).toMatchObject({
      userId: "ada",
      details: { run_id: id },
    });
  });

  it("an upload to verify is audited with its verdict", async () => {
    const response = await call(verifyRoute.POST, "POST", "/api/certification/verify", {
      rawBody: "not a zip at all",
      headers: { ...ADA, "content-type": "application/zip" },
    });
    expect(response.status).toBeLessThan(500);
    const [row] = await rows("certification_evidence_verified");
    expect(row).toMatchObject({ userId: "ada", outcome: "failure" });
  });

  it("batch result downloads are audited, and so is probing another user's batch", async () => {
    const jar = new CookieJar();
    const demo = await saveDemoCredentials(jar, SAM);
    expect(demo.status).toBe(200);
    const started = await call(
      batchesRoute.POST,
      "POST",
      "/api/support/batches",
      {
        body: { cards: ["6006491000000001"] },
        headers: SAM,
      },
      jar,
    );
    expect(started.status).toBe(202);
    const { id } = await readJson<{ id: string }>(started);
    const csv = await call(
      resultsCsvRoute.GET,
      "GET",
      `/api/support/batches/${id}/results.csv`,
      { headers: SAM },
      jar,
    );
    expect(csv.status).toBe(200);
    await csv.text();
    const page = await call(
      resultsRoute.GET,
      "GET",
      `/api/support/batches/${id}/results?from=0&limit=10&download=1`,
      {
        headers: SAM,
      },
      jar,
    );
    expect(page.status).toBe(200);
    const downloads = await rows("support_batch_results_downloaded");
    expect(downloads.map((row) => row.details?.format).sort()).toEqual(["csv", "json"]);
    expect(downloads.every((row) => row.userId === "sam" && row.details?.batch_id === id)).toBe(true);

    const probe = await call(batchRoute.GET, "GET", `/api/support/batches/${id}`, { headers: EVE });
    expect(probe.status).toBe(404);
    const [probed] = await rows("support_batch_not_found");
    expect(probed).toMatchObject({
      userId: "eve",
      outcome: "failure",
      reason: "not_found",
      details: { batch_id: id },
    });
  });

  it("a sign-out records whether credentials were forgotten, readable", async () => {
    const jar = new CookieJar();
    const demo = await saveDemoCredentials(jar, ADA);
    expect(demo.status).toBe(200);
    const ended = await call(sessionRoute.DELETE, "DELETE", "/api/session", { headers: ADA }, jar);
    expect(ended.status).toBe(200);
    const [row] = await rows("session_end");
    expect(row?.details).toMatchObject({ credentials_forgotten: true });
  });
});
