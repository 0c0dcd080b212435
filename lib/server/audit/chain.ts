/**
 * The hash chain: each row's hash is the SHA-256 of a canonical serialisation of its fields, including the
 * previous row's hash. A change to any stored field, or a missing row, breaks the chain at that row.
 */
import "server-only";
import { createHash } from "node:crypto";
import type { AuditEntry } from "./entry";

export const GENESIS_HASH = "0".repeat(64);

export interface ChainedFields extends AuditEntry {
  seq: number;
  time: Date;
  prevHash: string;
}

export interface AuditRow extends ChainedFields {
  rowHash: string;
}

function sortedDetails(details: AuditEntry["details"]): [string, unknown][] | null {
  if (!details) return null;
  return Object.keys(details)
    .sort()
    .map((key) => [key, details[key]]);
}

/** Fixed field order, arrays for objects (jsonb does not keep key order), ISO time in milliseconds. */
export function canonicalSerialisation(row: ChainedFields): string {
  return JSON.stringify([
    1, // serialisation version
    row.seq,
    row.time.toISOString(),
    row.userId,
    row.roles,
    row.clientAddress,
    row.event,
    row.environment,
    row.operation,
    row.cardMasked,
    row.cardLast4,
    row.cardHmac,
    row.upstreamStatus,
    row.requestId,
    row.outcome,
    row.reason,
    sortedDetails(row.details),
    row.prevHash,
  ]);
}

export function rowHash(row: ChainedFields): string {
  return createHash("sha256").update(canonicalSerialisation(row)).digest("hex");
}
