/**
 * A caller who knows only a client certification's client_id (AUTH_MODE=proxy, docs/design.md §11) cannot grow
 * what the certification keeps, nor take the console's CPU: 500 wrong-secret token requests with 60 KB bodies are
 * counted, never kept, and /api/health stays fast beside them.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import type {
  ClientCertificationView,
  StartedClientCertification,
} from "@/lib/shared/client-certification-contract";
import type { ConsoleServer } from "@/test/support/console-server";
import { proxyIdentity, startProxyConsole } from "@/test/support/proxy-console";
import { api } from "../../integration/auth/team-console.support";

const SECRET = "proxy-shared-secret-for-the-wrong-secret-flood";
const identity = proxyIdentity(SECRET);

const METRICS_TOKEN = "metrics-token-for-the-flood-test";
let server: ConsoleServer;

/** The console process's CPU seconds so far (prom-client's default metric). */
async function consoleCpuSeconds(): Promise<number> {
  const response = await fetch(`${server.url}/api/metrics`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await response.text();
  const line = /^console_process_process_cpu_seconds_total (\S+)$/m.exec(text);
  if (!line) throw new Error(`no CPU metric in ${text.slice(0, 200)}`);
  return Number(line[1]);
}

beforeAll(async () => {
  server = await startProxyConsole({
    secret: SECRET,
    roleGroups: "tester:certification",
    env: { METRICS_TOKEN },
  });
});
afterAll(() => server?.stop());

test("500 wrong-secret token requests with 60 KB bodies for its client_id: the view grows by a few bytes, no check changes, /api/health stays fast", async () => {
  const tess = identity("tess", "certification");
  const started = await api<StartedClientCertification>(
    server.url,
    null,
    "POST",
    "/api/client-certifications",
    { environment: "embedded" },
    tess,
  );
  const read = () =>
    api<ClientCertificationView>(
      server.url,
      null,
      "GET",
      `/api/client-certifications/${started.body.id}`,
      undefined,
      tess,
    );
  const before = await read();
  const cpuBefore = await consoleCpuSeconds();
  const pad = "A".repeat(60_000);
  const flood = async () => {
    for (let sent = 0; sent < 50; sent += 1) {
      const response = await fetch(`${started.body.auth_url}/reporting/v1/auth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          client_id: started.body.client_id,
          client_secret: `wrong-${sent}`,
          grant_type: "client_credentials",
          pad,
        }),
      });
      expect(response.status).toBe(400);
      await response.arrayBuffer();
    }
  };
  const healthTimes: number[] = [];
  let flooding = true;
  const watch = (async () => {
    while (flooding) {
      const at = performance.now();
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      healthTimes.push(performance.now() - at);
    }
  })();
  await Promise.all(Array.from({ length: 10 }, flood));
  flooding = false;
  await watch;
  await expect.poll(async () => (await read()).body.calls.refused_token_requests).toBe(500);
  const after = await read();
  expect(after.body.calls).toMatchObject({ kept: 0, dropped: 0, refused_token_requests: 500 });
  expect(after.body.exchanges).toEqual([]);
  expect(after.body.checks).toEqual(before.body.checks);
  const grown = JSON.stringify(after.body).length - JSON.stringify(before.body).length;
  expect(grown).toBeLessThan(200);
  // CPU, not wall time, is what the flood may not cost: the machine may be busy with other work. Before the
  // secret search was linear, 40 such requests cost 4.4 s.
  const cpu = (await consoleCpuSeconds()) - cpuBefore;
  const sorted = [...healthTimes].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  expect(cpu).toBeLessThan(10);
  expect(median).toBeLessThan(500);
});
