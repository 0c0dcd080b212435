/**
 * The Ed25519 key that signs evidence bundles (EVIDENCE_SIGNING_KEY, PKCS#8 PEM). When unset, one is generated
 * once into DATA_DIR and reused, announced like AUDIT_HMAC_KEY (lib/server/util/generated-key.ts): bundles signed
 * by a key nobody kept cannot be trusted later. This module only makes the PEM an Ed25519 signing key and its JWK.
 */
import "server-only";
import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { calculateJwkThumbprint, exportJWK } from "jose";
import { publicJwkSchema, type PublicJwk } from "@/lib/shared/certification-schemas";
import { generateEd25519Pem, loadKey } from "@/lib/server/util/generated-key";

/** In DATA_DIR, where earlier versions kept it too (docs/reference/evidence-bundle.md). */
export const GENERATED_KEY_FILE = "evidence-signing-key.pem";

export interface EvidenceSigningKey {
  privateKey: KeyObject;
  publicJwk: PublicJwk;
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
  // Parsed, not asserted: what jose exports is any JWK, and the key is served and bundled as an Ed25519 one.
  const publicJwk = publicJwkSchema.parse({ ...jwk, alg: "EdDSA", use: "sig", kid });
  return { privateKey, publicJwk, kid, source };
}

export async function loadEvidenceSigningKey(options: {
  env: Record<string, string | undefined>;
  warn?: (message: string) => void;
}): Promise<EvidenceSigningKey> {
  const key = loadKey({
    name: "EVIDENCE_SIGNING_KEY",
    value: options.env.EVIDENCE_SIGNING_KEY?.trim().replace(/\\n/g, "\n"),
    dataDir: options.env.DATA_DIR?.trim(),
    file: GENERATED_KEY_FILE,
    generate: generateEd25519Pem,
    // Said once, when generated: a reused key was announced when it was made.
    warn: (_message, reused, file) => {
      if (reused) return;
      options.warn?.(
        `EVIDENCE_SIGNING_KEY is not set: generated an Ed25519 evidence signing key in ${file}. Set ` +
          "EVIDENCE_SIGNING_KEY (PKCS#8 PEM) so that every instance signs with one key you keep.",
      );
    },
  });
  return describeKey(parseKey(key.value, key.file ?? "EVIDENCE_SIGNING_KEY"), key.source);
}
