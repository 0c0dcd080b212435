/**
 * What the support routes share: a batch's credentials from the session's call context, the batch id from the
 * URL, and the batch body, JSON or a CSV upload.
 */
import "server-only";
import { z } from "zod";
import { paying, type CallContext } from "@/lib/server/token/call-context";
import type { ServerConfig } from "@/lib/server/config";
import { ApiError } from "@/lib/server/util/errors";
import { bodyMediaType, validateInput } from "@/lib/server/http/guards";
import { readTextWithLimit } from "@/lib/shared/body";
import type { StoredCredentials } from "./batch-runner";
import { RESULT_FILTERS, supportBatchInputSchema, type ResultFilter } from "@/lib/shared/support-contract";

/**
 * How a batch will look its cards up, from the session's call context (the credentials it resolved for its
 * environment): 401 `no_credentials` now rather than a batch of failures later.
 */
export function batchCredentials(call: CallContext): StoredCredentials {
  const credentials = paying(call);
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
function maxBatchBodyBytes(config: ServerConfig): number {
  return config.supportBatch.maxCards * 96 + 64 * 1024;
}

/** The body as text, up to `limit` bytes: 413 past it, 400 `request_aborted` when the client leaves mid-body. */
async function readUpTo(request: Request, limit: number, what: string): Promise<string> {
  let text: string | null;
  try {
    text = await readTextWithLimit(request, limit);
  } catch {
    throw new ApiError("request_aborted", "The client closed the connection before the whole body arrived.");
  }
  if (text === null) throw new ApiError("payload_too_large", `The ${what} is larger than ${limit} bytes.`);
  return text;
}

/** Reads a JSON body of up to `limit` bytes (the route wrapper's own reader stops at 16 KiB) and validates it. */
async function readLargeJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  limit: number,
): Promise<z.output<S>> {
  const text = await readUpTo(request, limit, "request body");
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
 * A batch body: JSON (`{cards}` or `{csv}`, with `reason`), or a `text/csv` upload whose `?reason=` goes with it.
 * A CSV is read up to the batch limit; JSON up to twice that (escaping can double a CSV's size).
 */
export async function readBatchInput(
  request: Request,
  config: ServerConfig,
): Promise<z.output<typeof supportBatchInputSchema>> {
  const limit = maxBatchBodyBytes(config);
  if (bodyMediaType(request) !== "text/csv") {
    return readLargeJsonBody(request, supportBatchInputSchema, limit * 2);
  }
  const text = await readUpTo(request, limit, "CSV");
  const reason = new URL(request.url).searchParams.get("reason");
  return validateInput(reason ? { csv: text, reason } : { csv: text }, supportBatchInputSchema);
}

/**
 * `?from=&limit=&show=&download=` of the results page: whole numbers, limit 1..max (default 100), one outcome or
 * all; `download=1` when the page is saved as a file rather than shown.
 */
export function resultsPageParams(
  request: Request,
  max: number,
): { from: number; limit: number; show?: ResultFilter; download: boolean } {
  const params = new URL(request.url).searchParams;
  const schema = z.object({
    from: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(max).default(100),
    show: z.enum(RESULT_FILTERS).optional(),
    download: z
      .enum(["0", "1"])
      .default("0")
      .transform((value) => value === "1"),
  });
  const parsed = schema.safeParse({
    from: params.get("from") ?? undefined,
    limit: params.get("limit") ?? undefined,
    show: params.get("show") ?? undefined,
    download: params.get("download") ?? undefined,
  });
  if (!parsed.success) {
    throw new ApiError(
      "validation_failed",
      `from must be 0 or more; limit 1 to ${max}; show one of ${RESULT_FILTERS.join(", ")}; download 0 or 1.`,
      {
        fields: Object.fromEntries(
          parsed.error.issues.map((issue) => [issue.path.join("."), [issue.message]]),
        ),
      },
    );
  }
  return parsed.data;
}
