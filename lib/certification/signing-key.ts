/**
 * The Ed25519 key that signs evidence bundles (EVIDENCE_SIGNING_KEY, PKCS#8 PEM). When unset, one is
 * generated once into DATA_DIR and reused, with a warning: bundles signed by a key nobody kept cannot be
 * trusted later. Kept small and on its own so that a shared key store can replace it.
 */
import "server-only";
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { calculateJwkThumbprint, exportJWK, type JWK } from "jose";

export const GENERATED_KEY_FILE = "evidence-signing-key.pem";

export interface EvidenceSigningKey {
  privateKey: KeyObject;
  publicJwk: JWK;
  /** RFC 7638 thumbprint of the public key. */
  kid: string;
  source: "environment" | "generated" | "data_dir";
}

export class SigningKeyError extends Error {
  override name = "SigningKeyError";
}

function parseKey(pem: string, where: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: "pem" });
  } catch {
    throw new SigningKeyError(`${where} is not a PKCS#8 PEM private key.`);
  }
  if (key.asymmetricKeyType !== "ed25519") {
    throw new SigningKeyError(`${where} must be an Ed25519 key (got ${key.asymmetricKeyType ?? "unknown"}).`);
  }
  return key;
}

async function describeKey(
  privateKey: KeyObject,
  source: EvidenceSigningKey["source"],
): Promise<EvidenceSigningKey> {
  const jwk = await exportJWK(createPublicKey(privateKey));
  const kid = await calculateJwkThumbprint(jwk);
  return { privateKey, publicJwk: { ...jwk, alg: "EdDSA", use: "sig", kid }, kid, source };
}

export async function loadEvidenceSigningKey(options: {
  env: Record<string, string | undefined>;
  warn?: (message: string) => void;
}): Promise<EvidenceSigningKey> {
  const configured = options.env.EVIDENCE_SIGNING_KEY?.trim();
  if (configured)
    return describeKey(parseKey(configured.replace(/\\n/g, "\n"), "EVIDENCE_SIGNING_KEY"), "environment");
  const file = path.resolve(options.env.DATA_DIR?.trim() || ".data", GENERATED_KEY_FILE);
  let pem: string | undefined;
  try {
    pem = readFileSync(file, "utf8");
  } catch {
    pem = undefined;
  }
  if (pem) return describeKey(parseKey(pem, file), "data_dir");
  const { privateKey } = generateKeyPairSync("ed25519");
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process generated one a moment ago: use that, so that both sign with one key.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      return describeKey(parseKey(readFileSync(file, "utf8"), file), "data_dir");
    }
    throw error;
  }
  options.warn?.(
    `EVIDENCE_SIGNING_KEY is not set: generated an Ed25519 evidence signing key in ${file}. Set ` +
      "EVIDENCE_SIGNING_KEY (PKCS#8 PEM) so that every instance signs with one key you keep.",
  );
  return describeKey(privateKey, "generated");
}
