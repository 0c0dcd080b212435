import "server-only";
import { z } from "zod";
import { ENVIRONMENTS, type EnvironmentName } from "@/lib/shared/contracts";
import type { ServerConfig } from "@/lib/server/config";
import { findEnvironment } from "@/lib/server/card-api/environments";
import { assertAllowed } from "@/lib/server/identity/enforce";
import type { Role } from "@/lib/server/identity/roles";
import { documentOrigin } from "@/lib/server/http/document-origin";
import { ApiError } from "@/lib/server/util/errors";

const querySchema = z.object({ environment: z.enum(ENVIRONMENTS) });

/** The environment a Postman download is for, and the addresses it names. */
export interface PostmanTarget {
  environment: EnvironmentName;
  authUrl: string;
  baseUrl: string;
}

/**
 * `?environment=` checked (configured, and one the caller may copy calls as code in); the embedded sandbox is
 * named at the public origin this request was addressed to (there may be several).
 */
export function postmanTarget(request: Request, config: ServerConfig, roles: readonly Role[]): PostmanTarget {
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) {
    throw new ApiError("bad_request", `environment must be one of ${ENVIRONMENTS.join(", ")}.`);
  }
  const name = parsed.data.environment;
  const environment = findEnvironment(config, name);
  if (!environment)
    throw new ApiError("environment_unavailable", `The environment ${name} is not configured.`);
  assertAllowed(roles, "copy_as_code", name);
  if (environment.transport !== "embedded") {
    return { environment: name, authUrl: environment.authUrl, baseUrl: environment.baseUrl };
  }
  const sandboxUrl = `${documentOrigin(request, config)}/sandbox`;
  return { environment: name, authUrl: sandboxUrl, baseUrl: sandboxUrl };
}

/** Postman's file name for a download of `kind` (`collection`, `environment`). */
export function postmanFileName(target: PostmanTarget, kind: "collection" | "environment"): string {
  return `attachment; filename="card-services-${target.environment}.postman_${kind}.json"`;
}
