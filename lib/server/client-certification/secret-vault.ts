/**
 * Seals a certification client's secret for the certification's life, so that every instance can search the
 * calls it records for the secret's encoded forms (secret-forms.ts).
 */
import "server-only";
import { createSealedBox, type SealedBox } from "@/lib/server/util/sealed-box";

export type SecretVault = SealedBox;

export function createSecretVault(auditHmacKey: string): SecretVault {
  return createSealedBox(auditHmacKey, "card-services-console client certification secret v1");
}
