/** The query and `{id}` of the test card routes, validated (400 `validation_failed` with field details). */
import "server-only";
import type { EnvironmentName } from "@/lib/shared/contracts";
import { testCardIdSchema, testCardQuerySchema } from "@/lib/shared/test-cards";
import { zodFieldErrors } from "@/lib/server/http/guards";
import { can } from "@/lib/server/identity/roles";
import type { RouteContext } from "@/lib/server/http/route";
import { ApiError } from "@/lib/server/util/errors";

function invalid(fields: Record<string, string[]>): ApiError {
  return new ApiError("validation_failed", "The test card or environment asked for is not valid.", {
    fields,
  });
}

/** The environment asked for (the session's when absent), which the caller must be allowed to act in. */
export async function testCardEnvironment(context: RouteContext): Promise<EnvironmentName> {
  const url = new URL(context.request.url);
  const parsed = testCardQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
  const environment = parsed.data.environment ?? (await context.environment());
  const { roles } = await context.user();
  if (!can(roles, "raw_exchange", environment)) {
    throw new ApiError("forbidden_by_role", `Your role does not offer test cards on ${environment}.`);
  }
  return environment;
}

export function testCardId(request: Request): string {
  const parsed = testCardIdSchema.safeParse(new URL(request.url).pathname.split("/").pop() ?? "");
  if (!parsed.success) throw invalid({ id: parsed.error.issues.map((issue) => issue.message) });
  return parsed.data;
}
