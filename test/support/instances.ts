/**
 * N console instances as a team deploys them (compose.yaml), on loopback: a real PostgreSQL (throwaway
 * cluster), the standalone sandbox (`node sandbox.mjs` from the standalone output) as upstream, N standalone
 * console servers (`node server.js`) sharing SESSION_SECRET, DATABASE_URL, AUDIT_HMAC_KEY and
 * EVIDENCE_SIGNING_KEY, and a round-robin load balancer in front. Requires a build (ensure-build).
 */
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./console-server";
import { startPostgres, type PostgresCluster } from "./postgres";
import { startRoundRobin, type RoundRobin } from "./round-robin";
import { startServerProcess, type ServerProcess } from "./server-process";

const root = path.resolve(__dirname, "../..");
const standalone = path.join(root, process.env.NEXT_DIST_DIR || ".next", "standalone");

export interface Deployment {
  postgres: PostgresCluster;
  databaseUrl: string;
  sandbox: ServerProcess;
  consoles: ServerProcess[];
  balancer: RoundRobin;
  /** The environment every console instance got (the shared secrets included). */
  env: Record<string, string>;
  stop: () => Promise<void>;
}

export async function startDeployment({
  instances = 2,
  env: extraEnv = {},
}: { instances?: number; env?: Record<string, string> } = {}): Promise<Deployment> {
  if (!existsSync(path.join(standalone, "server.js"))) {
    throw new Error("No standalone build: run `node scripts/ensure-build.mjs` (npm test does) first.");
  }
  const cleanups: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const postgres = await startPostgres();
    cleanups.push(() => postgres.stop());
    const databaseUrl = postgres.createDatabase();

    const sandboxPort = await freePort();
    const sandbox = await startServerProcess({
      script: path.join(standalone, "sandbox.mjs"),
      cwd: standalone,
      env: { SANDBOX_PORT: String(sandboxPort) },
      url: `http://127.0.0.1:${sandboxPort}`,
      probeUrl: `http://127.0.0.1:${sandboxPort}/`,
    });
    cleanups.push(() => sandbox.stop());

    const ports = await Promise.all(Array.from({ length: instances }, () => freePort()));
    const balancer = await startRoundRobin(ports.map((port) => `http://127.0.0.1:${port}`));
    cleanups.push(() => balancer.close());

    const dataDir = mkdtempSync(path.join(os.tmpdir(), "deployment-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = {
      SESSION_SECRET: "deployment-session-secret-shared-by-every-instance",
      DATABASE_URL: databaseUrl,
      AUDIT_HMAC_KEY: "deployment-audit-hmac-key-shared-by-every-instance",
      EVIDENCE_SIGNING_KEY: generateKeyPairSync("ed25519")
        .privateKey.export({ type: "pkcs8", format: "pem" })
        .toString(),
      EMBEDDED_SANDBOX: "off",
      CARD_API_AUTH_URL: sandbox.url,
      CARD_API_SANDBOX_URL: sandbox.url,
      PUBLIC_URL: balancer.url,
      TRUSTED_PROXIES: "127.0.0.1/32",
      ...(process.env.NEXT_DIST_DIR ? { NEXT_DIST_DIR: process.env.NEXT_DIST_DIR } : {}),
      ...extraEnv,
    };
    const consoles = await Promise.all(
      ports.map(async (port, index) => {
        const server = await startServerProcess({
          script: path.join(standalone, "server.js"),
          cwd: standalone,
          env: { ...env, PORT: String(port), DATA_DIR: path.join(dataDir, `instance-${index + 1}`) },
          url: `http://127.0.0.1:${port}`,
          probeUrl: `http://127.0.0.1:${port}/api/health`,
        });
        cleanups.push(() => server.stop());
        return server;
      }),
    );
    return { postgres, databaseUrl, sandbox, consoles, balancer, env, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
