import type { EnvironmentName } from "@/lib/api/contracts";

export const ENVIRONMENT_LABELS: Record<EnvironmentName, string> = {
  embedded: "Embedded sandbox",
  sandbox: "Sandbox",
  production: "Production",
};

export function environmentLabel(name: EnvironmentName): string {
  return ENVIRONMENT_LABELS[name] ?? name;
}
