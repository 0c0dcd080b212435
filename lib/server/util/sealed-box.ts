/**
 * AES-256-GCM under a key derived (HKDF-SHA-256) from AUDIT_HMAC_KEY, which every instance sharing the database
 * shares, so that what one instance sealed any other can open. `info` separates the keys of different uses.
 */
import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

export interface SealedBox {
  seal(plain: string): string;
  /** Throws when the value was not sealed with this key (or was changed). */
  open(sealed: string): string;
}

export function createSealedBox(auditHmacKey: string, info: string): SealedBox {
  const key = Buffer.from(hkdfSync("sha256", auditHmacKey, Buffer.alloc(0), info, 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
    },
    open(sealed) {
      const bytes = Buffer.from(sealed, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
    },
  };
}
