import type { EnvironmentName, OperationName } from "@/lib/api/contracts";

/**
 * The contract's names as plain constants for the browser. Importing values from lib/api/contracts would
 * pull zod (about 30 KB gzip) into a page's first load; these are checked against the contract's types.
 */
export const ENVIRONMENT_NAMES = [
  "embedded",
  "sandbox",
  "production",
] as const satisfies readonly EnvironmentName[];
export const OPERATION_NAMES = [
  "token",
  "gift_balance_inquiry",
  "balance_inquiry",
  "transaction_lookup",
] as const satisfies readonly OperationName[];

export const ENVIRONMENT_LABELS: Record<EnvironmentName, string> = {
  embedded: "Embedded sandbox",
  sandbox: "Sandbox",
  production: "Production",
};

export function environmentLabel(name: EnvironmentName): string {
  return ENVIRONMENT_LABELS[name] ?? name;
}

// Compile-time checks that the lists above name every environment and operation of the contract.
type Missing<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : false;
const _everyEnvironment: Missing<EnvironmentName, (typeof ENVIRONMENT_NAMES)[number]> = true;
const _everyOperation: Missing<OperationName, (typeof OPERATION_NAMES)[number]> = true;
