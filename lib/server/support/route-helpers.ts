/**
 * What the support routes share: the session's environment and credentials, the batch id from the URL, and the
 * CSV upload (`text/csv`) that becomes the JSON body `{csv, reason}` before the route wrapper sees it.
 */
import "server-only";
import { z } from "zod";
import type { EnvironmentName } from "@/lib/shared/contracts";
import { currentEnvironment } from "@/lib/server/card-api/environments";
import type { ServerConfig } from "@/lib/server/config";
import { ApiError } from "@/lib/server/util/errors";
import { validateInput } from "@/lib/server/http/guards";
import { ROUTE_ACCESS } from "@/lib/server/http/access";
import type { RouteHandler } from "@/lib/server/http/route";
import type { Session } from "@/lib/server/session";
import { resolveCredentials } from "@/lib/server/session/credentials";
import { readTextWithLimit } from "@/lib/shared/body";
import type { StoredCredentials } from "./batch-runner";
import { RESULT_FILTERS, type ResultFilter } from "@/lib/shared/support-contract";

export function sessionEnvironment(config: ServerConfig, session: Session): EnvironmentName {
  return currentEnvironment(config, session.state.environment).name;
}

/** How a batch will look its cards up: 401 `no_credentials` now rather than a batch of failures later. */
export function batchCredentials(config: ServerConfig, session: Session): StoredCredentials {
  const resolution = resolveCredentials(
    session.state,
    config,
    currentEnvironment(config, session.state.environment),
  );
  if (!resolution.ok) throw new ApiError("no_credentials", resolution.message);
  const { credentials } = resolution;
  if (credentials.source === "server") return { kind: "server" };
  if (credentials.profile === "demo") return { kind: "demo" };
  return { kind: "user", clientId: credentials.clientId, clientSecret: credentials.clientSecret };
}

const batchIdSchema = z.uuid();

/** `/api/support/batches/{id}[/results…]`: the id segment, validated (404 for anything that is not one). */
export function batchIdFrom(request: Request): string {
  const segments = new URL(request.url).pathname.split("/");
  const index = segments.indexOf("batches");
  const parsed = batchIdSchema.safeParse(segments[index + 1]);
  if (!parsed.success) throw new ApiError("not_found", "No such batch.");
  return parsed.data;
}

/** The largest batch body accepted: room for SUPPORT_BATCH_MAX_CARDS lines with a few columns each. */
export function maxBatchBodyBytes(config: ServerConfig): number {
  return config.supportBatch.maxCards * 96 + 64 * 1024;
}

/** Reads a JSON body of up to `limit` bytes (the route wrapper's own reader stops at 16 KiB) and validates it. */
export async function readLargeJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  limit: number,
): Promise<z.output<S>> {
  let text: string | null;
  try {
    text = await readTextWithLimit(request, limit);
  } catch {
    throw new ApiError("request_aborted", "The client closed the connection before the whole body arrived.");
  }
  if (text === null) {
    throw new ApiError("payload_too_large", `The request body is larger than ${limit} bytes.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid JSON.");
  }
  // Not parseJsonBody: CSV text holds line breaks (control characters). The schema bounds every other field.
  return validateInput(value, schema);
}

/**
 * Lets `handler` (an `apiRoute`, which accepts JSON only) take a `text/csv` upload: the CSV becomes the JSON body
 * `{"csv": …, "reason": ?reason}`, and every header (Origin, Cookie, Host) is kept, so the wrapper's checks apply.
 */
export function acceptingCsv(handler: RouteHandler, maxBytes: () => number): RouteHandler {
  const accepting = async (request: Request): Promise<Response> => {
    const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (request.method !== "POST" || mediaType !== "text/csv") return handler(request);
    const limit = maxBytes();
    let text: string | null;
    try {
      text = await readTextWithLimit(request, limit);
    } catch {
      return new ApiError("request_aborted", "The client closed the connection mid-upload.").toResponse();
    }
    if (text === null) {
      return new ApiError("payload_too_large", `The CSV is larger than ${limit} bytes.`).toResponse();
    }
    const reason = new URL(request.url).searchParams.get("reason");
    const headers = new Headers(request.headers);
    headers.set("content-type", "application/json");
    headers.delete("content-length");
    const body = JSON.stringify(reason ? { csv: text, reason } : { csv: text });
    return handler(new Request(request.url, { method: "POST", headers, body }));
  };
  // The same declared access as the wrapped route: the wrapper's checks still run on the re-sent request.
  return Object.assign(accepting, { [ROUTE_ACCESS]: handler[ROUTE_ACCESS] });
}

/** `?from=&limit=&show=` of the results page: whole numbers, limit 1..max (default 100), one outcome or all. */
export function resultsPageParams(
  request: Request,
  max: number,
): { from: number; limit: number; show?: ResultFilter } {
  const params = new URL(request.url).searchParams;
  const schema = z.object({
    from: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(max).default(100),
    show: z.enum(RESULT_FILTERS).optional(),
  });
  const parsed = schema.safeParse({
    from: params.get("from") ?? undefined,
    limit: params.get("limit") ?? undefined,
    show: params.get("show") ?? undefined,
  });
  if (!parsed.success) {
    throw new ApiError(
      "validation_failed",
      `from must be 0 or more; limit 1 to ${max}; show one of ${RESULT_FILTERS.join(", ")}.`,
      {
        fields: Object.fromEntries(
          parsed.error.issues.map((issue) => [issue.path.join("."), [issue.message]]),
        ),
      },
    );
  }
  return parsed.data;
}
