/**
 * The hash chain: each row's hash is the HMAC-SHA-256 (with the chain key, ./keys) of a canonical serialisation of
 * its fields, including the previous row's hash. A change to any stored field, or a missing row, breaks the chain
 * at that row, and without the key nobody can compute a new chain that holds. Rows before the chain head's
 * `keyed_from` were written by earlier versions with a plain SHA-256 and are checked as such; the keyed row after
 * them pins where that prefix ends (./verify.ts).
 */
import "server-only";
import { createHash, createHmac } from "node:crypto";
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
export function canonicalSerialisation(row: ChainedFields, version: 1 | 2 = 2): string {
  return JSON.stringify([
    version, // 1: plain SHA-256 chain, 2: keyed
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

/** The keyed hash every row is now written with. */
export function rowHash(row: ChainedFields, chainKey: Buffer): string {
  return createHmac("sha256", chainKey).update(canonicalSerialisation(row, 2)).digest("hex");
}

/** The plain hash of rows written before the switch-over (`keyed_from`). */
export function legacyRowHash(row: ChainedFields): string {
  return createHash("sha256").update(canonicalSerialisation(row, 1)).digest("hex");
}
