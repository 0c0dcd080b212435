/**
 * What may go into an audit row, and how it is made safe: validated with zod, the card reduced to its mask plus
 * a keyed hash, and every free-text field cleared of card numbers, tokens and secrets before it is stored.
 */
import "server-only";
import { createHmac } from "node:crypto";
import { z } from "zod";
import { maskCardNumber, maskCardNumbersInText } from "@/lib/shared/masking";

const REDACTED = "[REDACTED]";

const name = (max: number) => z.string().regex(new RegExp(`^[a-z][a-z0-9_.-]{0,${max - 1}}$`));
const text = (max: number) => z.string().max(max);
const detailValue = z.union([z.string().max(500), z.number().finite(), z.boolean(), z.null()]);

const auditEntrySchema = z
  .object({
    event: name(64),
    outcome: z.enum(["success", "failure"]),
    userId: text(256).nullish(),
    roles: z.array(name(32)).max(16).default([]),
    clientAddress: text(64).nullish(),
    environment: name(32).nullish(),
    operation: text(64).nullish(),
    /** The full card number as entered; only its mask and keyed hash are kept. */
    card: z
      .string()
      .transform((value) => value.replace(/[\s-]/g, ""))
      .pipe(z.string().regex(/^\d{12,19}$/, "a card number has 12 to 19 digits"))
      .nullish(),
    /** `last4` for support users (docs/design.md §6), else first 6 + last 4. */
    cardMask: z.enum(["first6last4", "last4"]).default("first6last4"),
    upstreamStatus: z.number().int().min(100).max(599).nullish(),
    requestId: text(128).nullish(),
    /** The reason or ticket given by the user. */
    reason: text(1000).nullish(),
    details: z
      .record(z.string().max(64), detailValue)
      .refine((record) => Object.keys(record).length <= 20, "at most 20 details")
      .nullish(),
  })
  .strict();

export type AuditEntryInput = z.input<typeof auditEntrySchema>;

/** The stored fields of a row before it is chained. */
export interface AuditEntry {
  userId: string | null;
  roles: string[];
  clientAddress: string | null;
  event: string;
  environment: string | null;
  operation: string | null;
  cardMasked: string | null;
  cardLast4: string | null;
  cardHmac: string | null;
  upstreamStatus: number | null;
  requestId: string | null;
  outcome: "success" | "failure";
  reason: string | null;
  details: Record<string, string | number | boolean | null> | null;
}

const SECRET_NAME =
  /secret|token|password|passwd|authorization|cookie|api[-_]?key|credential|^pan$|card[-_]?number/i;
const JWT_LIKE = /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
const IRON_SEAL = /Fe26\.2\*[^\s"]+/g;
const BEARER = /\b(Bearer|Basic)\s+[\w.~+/=-]{8,}/gi;

/** Masks card-like digit runs and removes token-shaped strings from free text. */
export function scrubText(value: string): string {
  return maskCardNumbersInText(
    value.replace(JWT_LIKE, REDACTED).replace(IRON_SEAL, REDACTED).replace(BEARER, `$1 ${REDACTED}`),
  );
}

const scrub = (value: string | null | undefined): string | null => (value == null ? null : scrubText(value));

/**
 * A detail as stored: text under a secret-like name is redacted; a boolean, null or a small number holds no
 * secret and stays readable (`credentials_forgotten: true`); a long integer may be a card number sent unquoted.
 */
function safeDetail(key: string, value: string | number | boolean | null): string | number | boolean | null {
  if (typeof value === "string") return SECRET_NAME.test(key) ? REDACTED : scrubText(value);
  if (typeof value === "number" && Number.isInteger(value) && Math.abs(value) >= 1e11) {
    return maskCardNumbersInText(String(value));
  }
  return value;
}

/** The keyed hash that stands for a card number (search, support exports); base64url, never the number. */
export function cardHmac(hmacKey: string, card: string): string {
  return createHmac("sha256", hmacKey).update(card.replace(/[\s-]/g, "")).digest("base64url");
}

/** Validates (throws a ZodError on bad input) and makes an entry safe to store. */
export function toAuditEntry(input: AuditEntryInput, hmacKey: string): AuditEntry {
  const entry = auditEntrySchema.parse(input);
  const card = entry.card ?? null;
  let details: AuditEntry["details"] = null;
  if (entry.details) {
    details = {};
    for (const [key, value] of Object.entries(entry.details))
      details[scrubText(key)] = safeDetail(key, value);
  }
  return {
    userId: scrub(entry.userId),
    roles: entry.roles,
    clientAddress: scrub(entry.clientAddress),
    event: entry.event,
    environment: entry.environment ?? null,
    operation: scrub(entry.operation),
    cardMasked: card ? (entry.cardMask === "last4" ? card.slice(-4) : maskCardNumber(card)) : null,
    cardLast4: card ? card.slice(-4) : null,
    cardHmac: card ? cardHmac(hmacKey, card) : null,
    upstreamStatus: entry.upstreamStatus ?? null,
    requestId: scrub(entry.requestId),
    outcome: entry.outcome,
    reason: scrub(entry.reason),
    details,
  };
}
