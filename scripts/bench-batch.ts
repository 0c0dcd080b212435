/**
 * `npm run bench`'s support batch figure: 1,000 cards through POST /api/support/batches against the standalone
 * sandbox (the console's "sandbox" environment), timed from the 202 to `done`, in cards per second, printed
 * beside the plain balance proxy's requests per second. The batch runs with SUPPORT_BATCH_CONCURRENCY calls at
 * once (4 by default), where the proxy figure had the benchmark's many connections.
 */
import { setTimeout as delay } from "node:timers/promises";

const CARDS = 1000;

interface Progress {
  id: string;
  status: string;
  total: number;
  done: number;
  failed: number;
  rate: number | null;
}

export async function benchBatch(consoleUrl: string, cookie: string, proxyRps: number): Promise<void> {
  const headers = { "content-type": "application/json", origin: consoleUrl, cookie };
  const cards = Array.from({ length: CARDS }, (_, index) =>
    index % 2 === 0 ? "6006491000000001" : "6006491000000019",
  );
  // Warm-up: the first support call opens the database (slow with the embedded PGlite) and takes a token.
  const warm = await fetch(`${consoleUrl}/api/support/lookups`, {
    method: "POST",
    headers,
    body: JSON.stringify({ card_number: cards[0] }),
  });
  if (warm.status !== 200) throw new Error(`support lookup failed: ${warm.status} ${await warm.text()}`);
  const started = performance.now();
  const response = await fetch(`${consoleUrl}/api/support/batches`, {
    method: "POST",
    headers,
    body: JSON.stringify({ cards, reason: "bench" }),
  });
  if (response.status !== 202)
    throw new Error(`batch not started: ${response.status} ${await response.text()}`);
  const { id } = (await response.json()) as Progress;
  let progress: Progress;
  for (;;) {
    const poll = await fetch(`${consoleUrl}/api/support/batches/${id}`, { headers: { cookie } });
    progress = (await poll.json()) as Progress;
    if (progress.status === "done" || progress.status === "cancelled") break;
    await delay(100);
  }
  const seconds = (performance.now() - started) / 1000;
  const perSecond = progress.total / seconds;
  console.log(
    `\n(d)  support batch  ${CARDS} cards → sandbox: ${perSecond.toFixed(0)} cards/s ` +
      `(${seconds.toFixed(2)} s, ${progress.failed} failed, server rate ${progress.rate ?? "—"} cards/s) ` +
      `beside (b) ${proxyRps.toFixed(0)} req/s; d/b = ${(perSecond / (proxyRps || 1)).toFixed(2)}`,
  );
  if (progress.status !== "done" || progress.failed > 0) process.exitCode = 1;
}
