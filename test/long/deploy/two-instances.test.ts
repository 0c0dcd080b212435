/**
 * Two console instances as compose.yaml runs them (standalone servers on one real PostgreSQL, the standalone
 * sandbox as upstream, a round-robin load balancer in front): both are ready on the one database, which was
 * migrated once; a session started on one instance works on the other, call after call; and when one instance
 * stops, the other carries the same session on (its earlier work still found upstream).
 *
 * What the instances share through the database: a session ended on one is ended on both; the audit log holds
 * both instances' rows in one unbroken chain; a certification run started on one is readable on the other; a
 * support batch whose instance is killed mid-way loses no reported result and is finished by the other.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { ExchangeRecord, SessionInfo, TokenResult } from "@/lib/shared/contracts";
import type { RunView } from "@/lib/shared/certification-api";
import type {
  SupportBatchProgress,
  SupportBatchResultRow,
  SupportBatchResults,
} from "@/lib/shared/support-contract";
import { startDeployment, type Deployment } from "../../support/instances";
import { ConsoleClient } from "@/test/support/http-client";

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

/** The audit rows an instance wrote, from its server log (one JSON line per row, docs/design.md §7). */
function auditSeqs(logs: string): number[] {
  const seqs: number[] = [];
  for (const line of logs.split("\n")) {
    if (!line.includes('"audit":')) continue;
    try {
      const parsed = JSON.parse(line) as { audit?: { seq?: number | string } };
      if (parsed.audit?.seq !== undefined) seqs.push(Number(parsed.audit.seq));
    } catch {
      // not a JSON log line
    }
  }
  return seqs;
}

/** Every result row of a batch, paging on. */
async function batchResults(client: ConsoleClient, id: string): Promise<SupportBatchResultRow[]> {
  const rows: SupportBatchResultRow[] = [];
  let from: number | null = 0;
  while (from !== null) {
    const page: { status: number; body: SupportBatchResults } = await client.json<SupportBatchResults>(
      "GET",
      `/api/support/batches/${id}/results?from=${from}`,
    );
    expect(page.status).toBe(200);
    rows.push(...page.body.rows);
    from = page.body.next_position;
  }
  return rows;
}

describe("what two instances share through the database", () => {
  let deployment: Deployment;
  let profileDir: string;
  let profile: string;
  beforeAll(async () => {
    // The sandbox's cards for certification runs (the standalone sandbox's fixtures).
    profileDir = mkdtempSync(path.join(os.tmpdir(), "two-instances-"));
    profile = path.join(profileDir, "profile.json");
    writeFileSync(
      profile,
      JSON.stringify({
        cards: { active: "6006491000000001", declined: "6006491000000027" },
        location_id: "cert-location-1",
        transaction_lookup: true,
      }),
    );
    // A short upstream timeout keeps a support card's lease (timeout × 3 + 5 s) short after an instance dies,
    // and a short staleness the time until its certification run's missing heartbeat counts (a minute by default).
    deployment = await startDeployment({
      instances: 2,
      env: {
        CARD_API_TIMEOUT_MS: "1000",
        RATE_LIMIT_PER_MINUTE: "100000",
        CERTIFICATION_PROFILE: profile,
        CERTIFICATION_RUN_STALE_SECONDS: "10",
      },
    });
  });
  afterAll(async () => {
    await deployment?.stop();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  /** A client of one instance (AUTH_MODE=none: every instance answers on loopback) with `from`'s cookies. */
  const on = (index: number, from?: ConsoleClient) => {
    const client = new ConsoleClient(deployment.consoles[index]!.url);
    for (const [name, value] of from?.cookies ?? []) client.cookies.set(name, value);
    return client;
  };
  const connect = async (client: ConsoleClient) => {
    const connected = await client.json<SessionInfo>("PUT", "/api/session/credentials", {
      body: { client_id: "demo-client", client_secret: "demo-secret" },
    });
    expect(connected.status).toBe(200);
  };

  test("a session ended on one instance is ended on both: a copied cookie holds nothing on either", async () => {
    const client = new ConsoleClient(deployment.balancer.url);
    await connect(client);
    const copied = new Map(client.cookies);
    for (const index of [0, 1]) {
      const session = await on(index, client).json<SessionInfo>("GET", "/api/session");
      expect(session.body.credentials).toMatchObject({ source: "session", client_id: "demo-client" });
    }
    const ended = await on(0, client).send("DELETE", "/api/session");
    expect(ended.status).toBe(200);
    for (const index of [0, 1]) {
      const reused = new ConsoleClient(deployment.consoles[index]!.url);
      for (const [name, value] of copied) reused.cookies.set(name, value);
      const session = await reused.json<SessionInfo>("GET", "/api/session");
      expect(session.body.credentials).not.toMatchObject({ source: "session" });
      expect(session.body.token).toBeNull();
      const token = await reused.json<{ error: { code: string } }>("POST", "/api/token", { body: {} });
      expect(token.status).toBeGreaterThanOrEqual(400);
      expect(token.status).toBeLessThan(500);
    }
  });

  test("a certification run started on one instance is readable on the other", async () => {
    const first = on(0);
    await connect(first);
    const started = await first.json<{ id: string }>("POST", "/api/certification/runs", {
      body: { environment: "sandbox", cases: ["TOK-01", "BI-01"] },
    });
    expect(started.status).toBe(202);
    const other = on(1);
    const read = await other.json<RunView>("GET", `/api/certification/runs/${started.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: started.body.id, environment: { name: "sandbox" } });
    await expect
      .poll(
        async () =>
          (await other.json<RunView>("GET", `/api/certification/runs/${started.body.id}`)).body.status,
        { timeout: 60_000, interval: 250 },
      )
      .toBe("done");
    // Both instances read the same finished run, its two cases judged, from the one database.
    const there = await other.json<RunView>("GET", `/api/certification/runs/${started.body.id}`);
    const here = await first.json<RunView>("GET", `/api/certification/runs/${started.body.id}`);
    expect(there.body).toEqual(here.body);
    expect(there.body).toMatchObject({ total: 2, done: 2 });
    expect([...there.body.case_ids].sort()).toEqual(["BI-01", "TOK-01"]);
    expect(there.body.results).toHaveLength(2);
  });

  test("the audit log holds both instances' rows in one unbroken chain", async () => {
    const client = new ConsoleClient(deployment.balancer.url);
    await connect(client);
    for (let call = 0; call < 4; call++) {
      const lookup = await client.json<ExchangeRecord>("POST", "/api/inquiries/balance", { body: CARD });
      expect(lookup.status).toBe(200);
    }
    const verify = await client.json<{ ok: boolean; rows: number }>("GET", "/api/audit/verify");
    expect(verify.status).toBe(200);
    expect(verify.body.ok).toBe(true);
    // Each instance wrote rows (its own log lines name them); together they are one sequence without gaps.
    // Log lines are written asynchronously: wait until every row verify counted has reached a log.
    const logged = () => {
      const [firstSeqs = [], secondSeqs = []] = deployment.consoles.map((instance) =>
        auditSeqs(instance.logs()),
      );
      return { firstSeqs, secondSeqs, all: [...firstSeqs, ...secondSeqs].sort((a, b) => a - b) };
    };
    const unbroken = (seqs: number[]) => seqs.every((seq, index) => seq === seqs[0]! + index);
    await expect
      .poll(() => {
        const { all } = logged();
        return all.length >= verify.body.rows && unbroken(all);
      })
      .toBe(true);
    const { firstSeqs, secondSeqs, all } = logged();
    expect(firstSeqs.length).toBeGreaterThan(0);
    expect(secondSeqs.length).toBeGreaterThan(0);
    expect(firstSeqs.filter((seq) => secondSeqs.includes(seq))).toEqual([]);
    expect(all).toEqual(Array.from({ length: all.length }, (_, index) => all[0]! + index));
  });

  test("an instance killed mid-work: its batch is finished by the other with no reported result lost, its certification run is marked interrupted", async () => {
    const victim = on(0);
    await connect(victim);
    // A certification run that is still under way when the instance dies: its active card is the slow one (each
    // Balance Inquiry case waits for the console's timeout). The profile is read when a run starts.
    writeFileSync(
      profile,
      JSON.stringify({
        cards: { active: "6006491000000043", declined: "6006491000000027" },
        location_id: "cert-location-1",
        transaction_lookup: true,
      }),
    );
    const run = await victim.json<{ id: string }>("POST", "/api/certification/runs", {
      body: { environment: "sandbox" },
    });
    expect(run.status).toBe(202);
    // Every tenth card is the sandbox's slow one (it times out after CARD_API_TIMEOUT_MS): the batch takes long
    // enough to be killed mid-way. Every third is unknown.
    const cards = Array.from({ length: 300 }, (_, index) => {
      if (index % 10 === 9) return "6006491000000043";
      return index % 3 === 2 ? `7006491${String(index).padStart(9, "0")}` : "6006491000000001";
    });
    const found = cards.filter((card) => card === "6006491000000001").length;
    const started = await victim.json<SupportBatchProgress>("POST", "/api/support/batches", {
      body: { cards, reason: "TAKEOVER" },
    });
    expect(started.status).toBe(202);
    const id = started.body.id;
    await expect
      .poll(
        async () => (await victim.json<SupportBatchProgress>("GET", `/api/support/batches/${id}`)).body.done,
        {
          timeout: 60_000,
          interval: 50,
        },
      )
      .toBeGreaterThanOrEqual(10);
    const reported = (await batchResults(victim, id)).filter((row) => row.state !== "pending");
    expect(reported.length).toBeGreaterThanOrEqual(10);

    const runningThere = await on(1).json<RunView>("GET", `/api/certification/runs/${run.body.id}`);
    expect(runningThere.body.status).toBe("running");
    expect(runningThere.body.done).toBeLessThan(runningThere.body.total);

    deployment.consoles[0]!.child.kill("SIGKILL");
    await deployment.consoles[0]!.exited;

    const survivor = on(1, victim);
    const finished = await vi.waitFor(
      async () => {
        const progress = await survivor.json<SupportBatchProgress>("GET", `/api/support/batches/${id}`);
        expect(progress.status).toBe(200);
        if (progress.body.status !== "done")
          throw new Error(`batch ${progress.body.status}: ${progress.body.done}`);
        return progress.body;
      },
      { timeout: 120_000, interval: 500 },
    );
    expect(finished).toMatchObject({ total: 300, done: 300, failed: 300 - found, cancelled: 0 });
    const results = await batchResults(survivor, id);
    expect(results).toHaveLength(300);
    for (const before of reported) {
      expect(results.find((row) => row.position === before.position)).toEqual(before);
    }
    expect(results.every((row) => row.state === "done" || row.state === "failed")).toBe(true);
    expect(results.filter((row) => row.outcome === "found")).toHaveLength(found);
    // The survivor wrote the audit rows of the cards it took over.
    expect(deployment.consoles[1]!.logs()).toContain(id);

    // The run's heartbeat stops with its instance; once stale (CERTIFICATION_RUN_STALE_SECONDS) the survivor says so.
    const interrupted = await vi.waitFor(
      async () => {
        const read = await survivor.json<RunView>("GET", `/api/certification/runs/${run.body.id}`);
        expect(read.status).toBe(200);
        if (read.body.status !== "interrupted") throw new Error(`run ${read.body.status}`);
        return read.body;
      },
      { timeout: 150_000, interval: 1_000 },
    );
    expect(interrupted.done).toBeLessThan(interrupted.total);
    expect(interrupted.finished_at).toBeDefined();
  }, 240_000);
});
