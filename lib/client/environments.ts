import type { EnvironmentName } from "@/lib/shared/contracts";
import { OPERATIONS } from "@/lib/shared/operations";

/**
 * The contract's names as plain constants for the browser. Importing values from lib/shared/contracts would
 * pull zod (about 30 KB gzip) into a page's first load; the environments are checked against the contract's
 * type, the operations come from the zod-free registry (lib/shared/operations.ts).
 */
export const ENVIRONMENT_NAMES = [
  "embedded",
  "sandbox",
  "production",
] as const satisfies readonly EnvironmentName[];
export const OPERATION_NAMES = OPERATIONS;

const ENVIRONMENT_LABELS: Record<EnvironmentName, string> = {
  embedded: "Embedded sandbox",
  sandbox: "Sandbox",
  production: "Production",
};

export function environmentLabel(name: EnvironmentName): string {
  return ENVIRONMENT_LABELS[name] ?? name;
}

// Compile-time check that the list above names every environment of the contract.
type Missing<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : false;
const _everyEnvironment: Missing<EnvironmentName, (typeof ENVIRONMENT_NAMES)[number]> = true;
