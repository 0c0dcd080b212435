/**
 * Evidence bundles signed by other keys, as a forger or another console would make them: the manifest edited
 * (or not), signed again with an Ed25519 key of their own, whose public key replaces public-key.jwk. Nothing
 * in such a bundle is broken; only who signed it differs.
 */
import { createHash, generateKeyPairSync, type KeyObject } from "node:crypto";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { calculateJwkThumbprint, CompactSign, exportJWK, type JWK } from "jose";

export interface TestSigningKey {
  privateKey: KeyObject;
  publicJwk: JWK;
  /** RFC 7638 thumbprint: what EVIDENCE_TRUSTED_KEYS names. */
  thumbprint: string;
  /** PKCS#8 PEM, for EVIDENCE_SIGNING_KEY. */
  pem: string;
}

export async function newSigningKey(): Promise<TestSigningKey> {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const jwk = await exportJWK(publicKey);
  const thumbprint = await calculateJwkThumbprint(jwk);
  return {
    privateKey,
    publicJwk: { ...jwk, alg: "EdDSA", use: "sig", kid: thumbprint },
    thumbprint,
    pem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The bundle with its manifest passed through `edit`, signed by `key`; SHA256SUMS and the hashes kept true. */
export async function resignBundle(
  zip: Uint8Array,
  key: TestSigningKey,
  edit: (manifest: Record<string, unknown>) => void = () => {},
): Promise<Uint8Array> {
  const files = unzipSync(zip);
  files["public-key.jwk"] = strToU8(`${JSON.stringify(key.publicJwk, null, 2)}\n`);
  const manifest = JSON.parse(strFromU8(files["manifest.json"]!)) as Record<string, unknown> & {
    files: Record<string, string>;
  };
  edit(manifest);
  manifest.files["public-key.jwk"] = sha256(files["public-key.jwk"]);
  manifest.signing_key = { alg: "EdDSA", crv: "Ed25519", kid: key.thumbprint };
  files["manifest.json"] = strToU8(`${JSON.stringify(manifest, null, 2)}\n`);
  const jws = await new CompactSign(files["manifest.json"])
    .setProtectedHeader({ alg: "EdDSA", kid: key.thumbprint })
    .sign(key.privateKey);
  files["manifest.jws"] = strToU8(`${jws}\n`);
  files["SHA256SUMS"] = strToU8(
    Object.keys(files)
      .filter((name) => name !== "SHA256SUMS")
      .sort((a, b) => a.localeCompare(b))
      .map((name) => `${sha256(files[name]!)}  ${name}\n`)
      .join(""),
  );
  return zipSync(files);
}

/** What a forger changes: production, every case passed, their name as operator. */
export function forgedManifest(manifest: Record<string, unknown>): void {
  const run = manifest.run as Record<string, unknown>;
  run.operator = "forger";
  manifest.environment = { ...(manifest.environment as object), name: "production" };
  manifest.summary = { pass: 25, fail: 0, observed: 0, not_applicable: 0 };
}
