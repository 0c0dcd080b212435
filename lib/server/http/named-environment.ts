/** The environment a refused request named, for its audit row. */
import "server-only";
import { ENVIRONMENTS, type EnvironmentName } from "@/lib/shared/contracts";
import { bodyMediaType, readBodyText } from "./guards";

export const WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

const isEnvironmentName = (value: unknown): value is EnvironmentName =>
  typeof value === "string" && (ENVIRONMENTS as readonly string[]).includes(value);

/**
 * `?environment=`, else the JSON body's `environment` (the body the handler read, or, when nothing read it yet, a
 * small JSON body read now). Never throws: a body that is too large, gone or not JSON names nothing.
 */
export async function namedEnvironment(
  request: Request,
  bodyRead: Promise<string> | null,
): Promise<EnvironmentName | undefined> {
  const fromQuery = new URL(request.url).searchParams.get("environment");
  if (isEnvironmentName(fromQuery)) return fromQuery;
  if (bodyMediaType(request) !== "application/json") return undefined;
  try {
    let text: string | null = null;
    if (bodyRead) text = await bodyRead;
    else if (WITH_BODY.has(request.method) && !request.bodyUsed) text = await readBodyText(request);
    if (!text) return undefined;
    const body: unknown = JSON.parse(text);
    const named =
      body && typeof body === "object" ? (body as { environment?: unknown }).environment : undefined;
    return isEnvironmentName(named) ? named : undefined;
  } catch {
    return undefined;
  }
}
