/**
 * The audit log's two derived keys, both from AUDIT_HMAC_KEY (kept out of the database: the environment, or a
 * generated file in DATA_DIR, lib/server/util/generated-key.ts): the chain key (HMAC-SHA-256 of each row), and the Ed25519 key that
 * signs checkpoints of the chain head. Derived, not stored, so that every instance sharing AUDIT_HMAC_KEY chains
 * and signs alike and one secret is all a team must share. Someone who can write to the database but does not
 * hold the key can neither re-chain rows nor sign a checkpoint.
 */
import "server-only";
import { createHash, createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from "node:crypto";

export interface AuditKeys {
  chainKey: Buffer;
  checkpointPrivateKey: KeyObject;
  checkpointPublicKey: KeyObject;
  /** First 16 hex of the SHA-256 of the public key (SPKI): names the key in a checkpoint. */
  kid: string;
}

/** The PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows it (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

function derive(hmacKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", hmacKey, "card-services-console audit", purpose, 32));
}

const cache = new Map<string, AuditKeys>();

export function auditKeys(hmacKey: string): AuditKeys {
  const known = cache.get(hmacKey);
  if (known) return known;
  const seed = derive(hmacKey, "checkpoint signing key (Ed25519 seed)");
  const checkpointPrivateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: "der",
    type: "pkcs8",
  });
  const checkpointPublicKey = createPublicKey(checkpointPrivateKey);
  const spki = checkpointPublicKey.export({ type: "spki", format: "der" });
  const keys: AuditKeys = {
    chainKey: derive(hmacKey, "row chain key (HMAC-SHA-256)"),
    checkpointPrivateKey,
    checkpointPublicKey,
    kid: createHash("sha256").update(spki).digest("hex").slice(0, 16),
  };
  cache.set(hmacKey, keys);
  return keys;
}
