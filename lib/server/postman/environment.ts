/**
 * A Postman environment to import beside the collection: the environment's addresses and the credentials to fill
 * in (the secret as a `secret` value, which Postman hides), so the collection stays unchanged per environment.
 */
import type { EnvironmentName } from "@/lib/shared/contracts";

export interface PostmanEnvironmentTarget {
  environment: EnvironmentName;
  authUrl: string;
  baseUrl: string;
}

export function postmanEnvironment(target: PostmanEnvironmentTarget) {
  const value = (key: string, text: string, type: "default" | "secret" = "default") => ({
    key,
    value: text,
    type,
    enabled: true,
  });
  return {
    name: `Card Services (${target.environment})`,
    values: [
      value("authUrl", target.authUrl),
      value("baseUrl", target.baseUrl),
      value("client_id", ""),
      value("client_secret", "", "secret"),
    ],
    _postman_variable_scope: "environment",
  };
}
