/**
 * Certification against an upstream over HTTP (127.0.0.1) that repeats every client secret and bearer
 * token it receives into error details, headers and bodies (as is and base64-encoded) and issues opaque
 * tokens: neither the console's routes (GET run, the certification_runs row, every file of the bundle) nor
 * `npm run certify` (its output and its bundle) may keep any of them.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunView } from "@/lib/shared/certification-api";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { startConsole, type ConsoleServer } from "../../support/console-server";
import { seedDataDir } from "../../support/pglite-template";
import { echoingUpstream, leakForms, type EchoingUpstream } from "../../support/echo-upstream";
import { ConsoleClient } from "@/test/support/http-client";
import { runToEnd } from "@/test/support/run-to-end";

const SECRET = "echo-me-client-secret-4711";
const work = mkdtempSync(path.join(os.tmpdir(), "cert-echo-"));
const profileFile = path.join(work, "profile.json");
let echo: EchoingUpstream;
let upstream: SandboxServer;

function leaksIn(text: string): string[] {
  return leakForms(echo.seen()).filter((value) => text.includes(value));
}

function zipLeaks(zip: Uint8Array): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const [name, bytes] of Object.entries(unzipSync(zip))) {
    const leaks = leaksIn(strFromU8(bytes));
    if (leaks.length > 0) found[name] = leaks;
  }
  return found;
}

/** The upstream really repeated what it was sent, so a clean result means something. */
function expectEchoHappened(): void {
  const seen = echo.seen();
  expect(seen).toContain(SECRET);
  expect(seen).toContain(`${SECRET}-wrong`);
  expect(seen.some((value) => value.startsWith("opaque-"))).toBe(true);
}

beforeAll(async () => {
  echo = echoingUpstream();
  const sandbox = createSandbox({ demoSecret: SECRET });
  upstream = await startSandboxServer({
    port: 0,
    sandbox: { ...sandbox, handle: echo.wrap((request) => sandbox.handle(request)) },
  });
  writeFileSync(
    profileFile,
    JSON.stringify({
      primary: { client_id: "demo-client", client_secret_env: "CERT_PRIMARY_SECRET" },
      short_lived: { client_id: "demo-short-lived", client_secret_env: "CERT_PRIMARY_SECRET" },
      cards: { active: "6006491000000001", declined: "6006491000000027" },
      location_id: "cert-location-1",
      transaction_lookup: true,
    }),
  );
});

afterAll(async () => {
  await upstream?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("certification against an upstream that echoes secrets and tokens", () => {
  let server: ConsoleServer;
  const dataDir = path.join(work, "data");

  beforeAll(async () => {
    // The run's migrated database, copied: these tests are about runs, not about creating a database.
    seedDataDir(dataDir);
    server = await startConsole({
      CARD_API_AUTH_URL: upstream.url,
      CARD_API_SANDBOX_URL: upstream.url,
      CERTIFICATION_PROFILE: profileFile,
      CERT_PRIMARY_SECRET: SECRET,
      DATA_DIR: dataDir,
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("keeps none of them in GET run, the certification_runs row or any file of the bundle", async () => {
    const tester = new ConsoleClient(server.url);
    const put = await tester.json("PUT", "/api/session/credentials", {
      body: { client_id: "demo-client", client_secret: SECRET },
    });
    expect(put.status).toBe(200);
    const started = await tester.json<{ id: string }>("POST", "/api/certification/runs", {
      body: { environment: "sandbox" },
    });
    expect(started.status).toBe(202);
    let run: RunView;
    for (;;) {
      run = (await tester.json<RunView>("GET", `/api/certification/runs/${started.body.id}`)).body;
      if (run.evidence_ready) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expectEchoHappened();
    expect(run.results.length).toBeGreaterThan(10);
    expect(leaksIn(JSON.stringify(run))).toEqual([]);

    const evidence = await tester.send("GET", `/api/certification/runs/${run.id}/evidence`);
    expect(evidence.status).toBe(200);
    expect(zipLeaks(new Uint8Array(await evidence.arrayBuffer()))).toEqual({});

    // The row itself, read after the console stopped (PGlite has one opener at a time).
    await server.stop();
    const db = await PGlite.create(path.join(dataDir, "pglite"));
    try {
      const rows = await db.query<Record<string, unknown>>(
        "SELECT id, operator_name, client_id, state, verdicts, results, exchanges FROM certification_runs",
      );
      expect(rows.rows.length).toBeGreaterThan(0);
      expect(leaksIn(JSON.stringify(rows.rows))).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

describe("npm run certify against an upstream that echoes secrets and tokens", () => {
  it("prints none of them and writes a bundle without them", async () => {
    const out = path.join(work, "cli-out");
    const result = await runToEnd(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        "scripts/certify.ts",
        "--env",
        "sandbox",
        "--out",
        out,
        "--profile",
        profileFile,
      ],
      {
        env: {
          NODE_ENV: "production",
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? work,
          DATA_DIR: path.join(work, "cli-data"),
          EMBEDDED_SANDBOX: "off",
          CARD_API_AUTH_URL: upstream.url,
          CARD_API_SANDBOX_URL: upstream.url,
          CERT_PRIMARY_SECRET: SECRET,
        },
      },
    );
    expect(result.output).toMatch(/cases in/);
    expect(result.code).toBe(1);
    expectEchoHappened();
    expect(leaksIn(result.output)).toEqual([]);
    const [file] = readdirSync(out).filter((name) => name.endsWith(".zip"));
    expect(file).toBeDefined();
    expect(zipLeaks(new Uint8Array(readFileSync(path.join(out, file!))))).toEqual({});
  });
});
