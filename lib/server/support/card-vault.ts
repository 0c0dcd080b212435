/**
 * Seals what a batch must keep until its lookups ran, and nothing longer: the card numbers (PCI DSS 3.5: never
 * stored readable) and, when the user entered their own, the client credentials. Any instance can open what another sealed
 * (util/sealed-box.ts), so any instance can finish a batch another one started.
 */
import "server-only";
import { createSealedBox, type SealedBox } from "@/lib/server/util/sealed-box";

export type CardVault = SealedBox;

export function createCardVault(auditHmacKey: string): CardVault {
  return createSealedBox(auditHmacKey, "card-services-console support batch v1");
}
