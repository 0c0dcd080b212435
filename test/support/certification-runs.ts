/** A certification run (docs/design.md §8) driven over HTTP, for the tests that need a genuine evidence bundle. */
import { expect } from "vitest";
import type { RunView } from "@/lib/shared/certification-api";
import type { ConsoleClient } from "./http-client";

/**
 * The signed bundle of a one-case run (TOK-01) on the embedded sandbox, as the page downloads it: the client's
 * session is given the demo credentials, the run started (202), and the bundle read once it is ready.
 */
export async function oneCaseRunBundle(client: ConsoleClient): Promise<Uint8Array> {
  const saved = await client.json("PUT", "/api/session/credentials", { body: { profile: "demo" } });
  expect(saved.status).toBe(200);
  const started = await client.json<{ id: string }>("POST", "/api/certification/runs", {
    body: { environment: "embedded", cases: ["TOK-01"] },
  });
  expect(started.status).toBe(202);
  const run = `/api/certification/runs/${started.body.id}`;
  await expect
    .poll(async () => (await client.json<RunView>("GET", run)).body.evidence_ready, {
      timeout: 60_000,
      interval: 100,
    })
    .toBe(true);
  const zip = await client.send("GET", `${run}/evidence`);
  expect(zip.status).toBe(200);
  return new Uint8Array(await zip.arrayBuffer());
}
