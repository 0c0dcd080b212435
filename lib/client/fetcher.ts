/**
 * fetch wrappers for SWR: JSON in, JSON out, and one error type built from the console's one error shape
 * (`{"error": {"code", "message", "details"?}}`, docs/design.md §4).
 */
import type { ErrorBody } from "@/lib/shared/contracts";
import { errorDetails } from "@/lib/shared/error-details";
import { noteApiCall, reportSessionEnded, sessionEndOf } from "./session-ended";
import { identityChanged, userHeaders } from "./user-scope";

export class ApiClientError extends Error {
  override readonly name = "ApiClientError";
  /** The console's error code, or `network_error` / `http_<status>` when the answer had no error body. */
  readonly code: string;
  /** HTTP status; 0 when the console could not be reached. */
  readonly status: number;
  readonly details?: unknown;

  constructor(code: string, status: number, message: string, details?: unknown) {
    super(message);
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

/** Whatever a call threw, as the console's error: an ApiClientError as it is, anything else as `unexpected`. */
export function toApiClientError(error: unknown): ApiClientError {
  if (error instanceof ApiClientError) return error;
  return new ApiClientError("unexpected", 0, error instanceof Error ? error.message : String(error));
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== "object" || value === null || !("error" in value)) return false;
  const error = (value as { error: unknown }).error;
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as { code?: unknown }).code === "string" &&
    typeof (error as { message?: unknown }).message === "string"
  );
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export async function requestJson<T>(url: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers: { Accept: "application/json", ...userHeaders(), ...init?.headers },
    });
  } catch {
    throw new ApiClientError("network_error", 0, "The console server could not be reached.");
  }
  const body = await readBody(response);
  if (response.status !== 401) noteApiCall();
  if (!response.ok) {
    if (isErrorBody(body)) {
      // Signed in as someone else now: this page's state is the previous user's, so the page starts over.
      if (body.error.code === "identity_changed") identityChanged();
      // The session is over: the shell hides what it showed and says why (lib/client/session-ended).
      if (body.error.code === "not_signed_in") reportSessionEnded(sessionEndOf(body.error.details));
      if (body.error.code === "user_suspended") {
        reportSessionEnded("suspended", errorDetails(body.error, "user_suspended")?.until ?? null);
      }
      throw new ApiClientError(body.error.code, response.status, body.error.message, body.error.details);
    }
    throw new ApiClientError(
      `http_${response.status}`,
      response.status,
      `The console answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}.`,
    );
  }
  return body as T;
}

/** SWR fetcher for GET keys. */
export function getJson<T>(url: string): Promise<T> {
  return requestJson<T>(url);
}

/** A `useSWRMutation` fetcher sending `arg` as a JSON body with the given method. */
export function sendJson<T, A = unknown>(method: "POST" | "PUT" | "PATCH" | "DELETE") {
  return (url: string, { arg }: { arg: A }): Promise<T> =>
    requestJson<T>(url, {
      method,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(arg ?? {}),
    });
}
