/**
 * Sealing with iron-session's `sealData`/`unsealData`, with password rotation: the newest password seals,
 * every configured password unseals. Each password is tried under the seal's own id, so the list can grow
 * at the front and shrink at the back without invalidating cookies sealed by a password still listed.
 */
import "server-only";
import { sealData, unsealData } from "iron-session";

const SEAL_PASSWORD_ID = 1;

export async function seal(data: object, passwords: readonly string[], ttlSeconds: number): Promise<string> {
  const [newest] = passwords;
  if (!newest) throw new Error("no session password configured");
  return sealData(data, { password: { [SEAL_PASSWORD_ID]: newest }, ttl: ttlSeconds });
}

export interface Unsealed {
  data: unknown;
  /** Index in `passwords` of the one that opened it; above 0 means it should be resealed with the newest. */
  passwordIndex: number;
}

/** Null for anything that is not an unexpired seal made with one of the passwords. Never throws. */
export async function unseal(value: string, passwords: readonly string[]): Promise<Unsealed | null> {
  const id = /^Fe26\.2\*(\d+)\*/.exec(value)?.[1] ?? String(SEAL_PASSWORD_ID);
  for (const [passwordIndex, password] of passwords.entries()) {
    try {
      const data: unknown = await unsealData(value, { password: { [id]: password } });
      if (data && typeof data === "object" && Object.keys(data).length > 0) return { data, passwordIndex };
    } catch {
      // Malformed seal (bad base64, wrong shape): the same as no session.
      return null;
    }
  }
  return null;
}
