/**
 * Standard Webhooks headers for one attempt of an alert (docs/design.md §13): `webhook-id` (the delivery's id, the
 * same on every attempt), `webhook-timestamp` (this attempt's Unix seconds) and `webhook-signature`, one
 * `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` per secret, space-separated (the new and, during a
 * rotation, the previous one). Signed by the `standardwebhooks` reference library, so a receiver using it, or
 * any library of the standard, verifies them.
 */
import "server-only";
import { Webhook } from "standardwebhooks";

/** The signers of the configured `whsec_` secrets, current first. */
export function alertSigners(secrets: readonly (string | undefined)[]): Webhook[] {
  return secrets.filter((secret): secret is string => Boolean(secret)).map((secret) => new Webhook(secret));
}

export function alertHeaders(
  id: string,
  body: string,
  at: Date,
  signers: readonly Webhook[],
): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
  };
  if (signers.length > 0) {
    headers["webhook-signature"] = signers.map((signer) => signer.sign(id, at, body)).join(" ");
  }
  return headers;
}
