/**
 * POST /api/certification/verify says who signed a bundle: a genuine bundle of this console, the same bundle
 * edited and signed again by a forger with a fresh key (production, 25 pass, operator "forger"), and one signed
 * by another console whose key EVIDENCE_TRUSTED_KEYS trusts. All three are intact; only the first two are
 * proof, and the forged one must say its signer is unknown.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VerifyResponse } from "@/lib/shared/certification-api";
import { startConsole, type ConsoleServer } from "../../support/console-server";
import { forgedManifest, newSigningKey, resignBundle, type TestSigningKey } from "../../support/evidence";
import { oneCaseRunBundle } from "@/test/support/certification-runs";
import { ConsoleClient } from "@/test/support/http-client";

let server: ConsoleServer;
let partner: TestSigningKey;
let tester: ConsoleClient;

beforeAll(async () => {
  partner = await newSigningKey();
  server = await startConsole({ EVIDENCE_TRUSTED_KEYS: `Partner console:${partner.thumbprint}` });
  tester = new ConsoleClient(server.url);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** The bundle of a one-case run on the embedded sandbox, as the page downloads it. */
function genuineBundle(): Promise<Uint8Array> {
  return oneCaseRunBundle(tester);
}

async function verify(zip: Uint8Array): Promise<VerifyResponse> {
  const response = await tester.json<VerifyResponse>("POST", "/api/certification/verify", {
    rawBody: zip as unknown as string,
    headers: { "content-type": "application/zip" },
  });
  expect(response.status).toBe(200);
  return response.body;
}

describe("POST /api/certification/verify names the signer", () => {
  it("this console, an unknown key (a forger's), and a trusted key", async () => {
    const genuine = await genuineBundle();
    const { body: publicKey } = await tester.json<{ kid: string }>("GET", "/api/certification/public-key");
    expect(await verify(genuine)).toMatchObject({
      ok: true,
      signed_by_this_console: true,
      signer: { kind: "this_console", thumbprint: publicKey.kid },
    });

    const forger = await newSigningKey();
    const forged = await verify(await resignBundle(genuine, forger, forgedManifest));
    expect(forged).toMatchObject({
      ok: true,
      signed_by_this_console: false,
      signer: { kind: "unknown", thumbprint: forger.thumbprint },
      run: { operator: "forger", environment: "production", summary: { pass: 25 } },
    });

    expect(await verify(await resignBundle(genuine, partner))).toMatchObject({
      ok: true,
      signed_by_this_console: false,
      signer: { kind: "trusted", thumbprint: partner.thumbprint, name: "Partner console" },
    });
  });
});
