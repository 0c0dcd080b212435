/**
 * The certification catalogue: every case in the order it runs. TOK-09 runs last because on the embedded
 * sandbox it revokes every token issued so far, the run's own included.
 */
import "server-only";
import { AUTH_CASES } from "./cases/auth";
import { BALANCE_CASES } from "./cases/balance";
import type { CaseDefinition } from "./cases/case-definition";
import { GIFT_CASES } from "./cases/gift";
import { RENEW_AFTER_401_CASE, TOKEN_CASES } from "./cases/token";
import { VERSION_CASES } from "./cases/version";
import type { CaseInfo } from "@/lib/shared/certification-contract";
import { ApiError } from "@/lib/server/util/errors";

export type { CaseDefinition };

export const CATALOGUE: readonly CaseDefinition[] = [
  ...TOKEN_CASES,
  ...AUTH_CASES,
  ...GIFT_CASES,
  ...BALANCE_CASES,
  ...VERSION_CASES,
  RENEW_AFTER_401_CASE,
];

export function describeCatalogue(): CaseInfo[] {
  return CATALOGUE.map(({ id, title, spec_sections }) => ({ id, title, spec_sections }));
}

export class UnknownCaseError extends Error {
  override name = "UnknownCaseError";
}

/** The selected cases in catalogue order; every id must exist (case-insensitive). */
export function selectCases(ids: readonly string[] | undefined): CaseDefinition[] {
  if (!ids || ids.length === 0) return [...CATALOGUE];
  const wanted = new Set(ids.map((id) => id.trim().toUpperCase()).filter(Boolean));
  const unknown = [...wanted].filter((id) => !CATALOGUE.some((item) => item.id === id));
  if (unknown.length > 0) {
    throw new UnknownCaseError(
      `Unknown case id(s): ${unknown.join(", ")}. Known: ${CATALOGUE.map((item) => item.id).join(", ")}.`,
    );
  }
  return CATALOGUE.filter((item) => wanted.has(item.id));
}

/** The selected cases' ids, as a caller's input names them; 400 `validation_failed` for an id the catalogue lacks. */
export function selectedCaseIds(ids: readonly string[] | undefined): string[] {
  try {
    return selectCases(ids).map((definition) => definition.id);
  } catch (error) {
    if (error instanceof UnknownCaseError) {
      throw new ApiError("validation_failed", error.message, { fields: { cases: [error.message] } });
    }
    throw error;
  }
}
