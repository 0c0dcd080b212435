/**
 * How much verifying a hostile or large evidence bundle costs the calling thread: wall time, the longest
 * event-loop stall (a 5 ms timer's largest gap) and peak RSS, per input. Not a test: numbers to compare
 * before and after a change of the reader.
 *
 *   npx tsx --conditions=react-server scripts/bench-verify-evidence.ts [--skip-huge]
 *
 * --skip-huge leaves out the 300 entries declaring 3 GiB each (a reader that believes declared sizes tries
 * to allocate them).
 */
import { verifyEvidence } from "@/lib/server/certification/evidence/verify";
import { declaredHugeZip, zipBomb } from "../test/support/hostile-zips";

async function measure(name: string, zip: Uint8Array): Promise<void> {
  let last = performance.now();
  let stall = 0;
  let peakRss = process.memoryUsage().rss;
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 5);
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  let outcome: string;
  try {
    const result = await verifyEvidence(zip);
    outcome = result.ok ? "intact" : `not intact: ${result.problems[0] ?? ""}`;
  } catch (error) {
    outcome = `refused: ${error instanceof Error ? error.message : String(error)}`;
  }
  const elapsed = performance.now() - started;
  // A reader that blocks the thread also blocks the timer: sample once more before anything is collected.
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  stall = Math.max(stall, performance.now() - last);
  clearInterval(timer);
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  console.log(
    `${name.padEnd(34)} ${(zip.byteLength / 1024).toFixed(0).padStart(6)} KiB zip  ` +
      `${elapsed.toFixed(0).padStart(6)} ms  stall ${stall.toFixed(0).padStart(6)} ms  ` +
      `RSS ${mib(rssBefore)} → peak ${mib(peakRss)} MiB  ${outcome.slice(0, 90)}`,
  );
}

async function main(): Promise<void> {
  const inputs: [string, () => Uint8Array][] = [
    ["4 × 60 MiB zeros (within bounds)", () => zipBomb({ mib: 60, entries: 4 })],
    ["200 MiB zeros, declared", () => zipBomb({ mib: 200 })],
    ["200 MiB zeros, declaring 1 KiB", () => zipBomb({ mib: 200, lie: true })],
  ];
  if (!process.argv.includes("--skip-huge")) {
    inputs.unshift(["300 entries declaring 3 GiB each", () => declaredHugeZip(300)]);
  }
  for (const [name, make] of inputs) await measure(name, make());
}

void main();
