/**
 * A request body kept as the text that was sent (the request editor's, a client's recorded call) is shown as JSON
 * when it is JSON, and as text only when it is not.
 */
export function requestBodyView(body: unknown): { value: unknown; isText: boolean } {
  if (typeof body !== "string") return { value: body, isText: false };
  try {
    return { value: JSON.parse(body), isText: false };
  } catch {
    return { value: body, isText: true };
  }
}
