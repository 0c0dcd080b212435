const REASONS: Record<number, string> = {
  200: "OK",
  201: "Created",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** "201 Created"; just the number for a status without a well-known reason. */
export function statusLine(status: number): string {
  // A Gift Balance Inquiry sent without an answer (lib/client/outcome-unknown.ts).
  if (status === 0) return "No answer";
  const reason = REASONS[status];
  return reason ? `${status} ${reason}` : String(status);
}

/** Looks a header up whatever its case. */
export function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return Object.entries(headers).find(([key]) => key.toLowerCase() === wanted)?.[1];
}
