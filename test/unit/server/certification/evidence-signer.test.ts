/**
 * Who signed an uploaded bundle (POST /api/certification/verify): an intact bundle is only as good as the key
 * that signed it, so the answer names that key — this console's, one EVIDENCE_TRUSTED_KEYS trusts, or unknown.
 */
import { strToU8, unzipSync, zipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { consoleInfo, specificationInfo } from "@/lib/server/certification/build-info";
import { buildEvidenceBundle } from "@/lib/server/certification/evidence/bundle";
import { verifyUploadedBundle, type SignerKeys } from "@/lib/server/certification/evidence/signer";
import { loadEvidenceSigningKey } from "@/lib/server/certification/signing-key";
import { forgedManifest, newSigningKey, resignBundle, type TestSigningKey } from "@/test/support/evidence";
import { certify } from "./harness";

let genuine: Uint8Array;
let partner: TestSigningKey;
let keys: SignerKeys;

beforeAll(async () => {
  const { run } = await certify();
  const own = await newSigningKey();
  const key = await loadEvidenceSigningKey({ env: { EVIDENCE_SIGNING_KEY: own.pem } });
  ({ zip: genuine } = await buildEvidenceBundle({
    run,
    key,
    console: consoleInfo(),
    specification: specificationInfo(),
  }));
  partner = await newSigningKey();
  keys = { own: key.kid, trusted: [{ thumbprint: partner.thumbprint, name: "Partner console" }] };
  expect(key.kid).toBe(own.thumbprint);
});

describe("the signer of an uploaded bundle", () => {
  it("is this console for a bundle it signed", async () => {
    const result = await verifyUploadedBundle(genuine, keys);
    expect(result).toMatchObject({
      ok: true,
      signed_by_this_console: true,
      signer: { kind: "this_console", thumbprint: keys.own },
    });
  });

  it("is unknown for an edited bundle signed again with a fresh key: intact, but proof of nothing", async () => {
    const forger = await newSigningKey();
    const forged = await resignBundle(genuine, forger, forgedManifest);
    const result = await verifyUploadedBundle(forged, keys);
    expect(result).toMatchObject({
      ok: true,
      signed_by_this_console: false,
      signer: { kind: "unknown", thumbprint: forger.thumbprint },
      run: { operator: "forger", environment: "production", summary: { pass: 25, fail: 0 } },
    });
    expect(result.signer).not.toHaveProperty("name");
  });

  it("is the trusted key, by its name, for a bundle another console signed with a key the operator trusts", async () => {
    const result = await verifyUploadedBundle(await resignBundle(genuine, partner), keys);
    expect(result).toMatchObject({
      ok: true,
      signed_by_this_console: false,
      signer: { kind: "trusted", thumbprint: partner.thumbprint, name: "Partner console" },
    });
    const unnamed = { ...keys, trusted: [{ thumbprint: partner.thumbprint }] };
    expect((await verifyUploadedBundle(await resignBundle(genuine, partner), unnamed)).signer).toEqual({
      kind: "trusted",
      thumbprint: partner.thumbprint,
    });
  });

  it("is nobody for a bundle that does not verify", async () => {
    const files = unzipSync(genuine);
    const changed = zipSync({ ...files, "results.csv": strToU8("case,verdict\n") });
    expect(await verifyUploadedBundle(changed, keys)).toMatchObject({
      ok: false,
      signed_by_this_console: false,
      signer: null,
    });
  });
});
