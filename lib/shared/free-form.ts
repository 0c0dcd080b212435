/**
 * The rules of a free-form request (`POST /api/requests`): which card operations it may call, and which headers
 * an engineer may add. Isomorphic and zod-free: the server enforces them, the request editor flags a refused
 * header with the same message before anything is sent.
 */
import type { InquiryOperation, OperationName } from "./operations";

/** The operations a free-form request may call, by their names in the request. */
export const FREE_FORM_OPERATIONS = [
  "gift_balance_inquiry",
  "balance_inquiry",
  "lookup_transaction",
] as const;
export type FreeFormOperation = (typeof FREE_FORM_OPERATIONS)[number];

/** The registry's operation a free-form request runs. */
export function freeFormOperationName(operation: FreeFormOperation): InquiryOperation | "transaction_lookup" {
  return operation === "lookup_transaction" ? "transaction_lookup" : operation;
}

/** The free-form name of a registry operation, null for the token request (not free-form). */
export function asFreeFormOperation(operation: OperationName): FreeFormOperation | null {
  if (operation === "token") return null;
  return operation === "transaction_lookup" ? "lookup_transaction" : operation;
}

/** The body is sent as it is; past this many UTF-8 bytes it is refused. */
export const MAX_FREE_FORM_BODY_BYTES = 16 * 1024;
export const MAX_FREE_FORM_HEADERS = 32;
const MAX_HEADER_NAME_LENGTH = 128;
const MAX_HEADER_VALUE_LENGTH = 2048;

/**
 * Headers the console owns: the address and token stay its own, the framing is the transport's, and hop-by-hop
 * headers (RFC 9110 §7.6.1) mean nothing past the first hop.
 */
const REFUSED_HEADERS: ReadonlyMap<string, string> = new Map([
  ["host", "the console calls its own configured address"],
  ["authorization", "the console sends its own token"],
  ["cookie", "the Card Services API takes no cookies and the console sends none"],
  ["content-length", "the console computes it from the body"],
  ["transfer-encoding", "the console frames the body itself"],
  ["connection", "it is a hop-by-hop header"],
  ["keep-alive", "it is a hop-by-hop header"],
  ["proxy-connection", "it is a hop-by-hop header"],
  ["proxy-authorization", "it is a hop-by-hop header"],
  ["proxy-authenticate", "it is a hop-by-hop header"],
  ["te", "it is a hop-by-hop header"],
  ["trailer", "it is a hop-by-hop header"],
  ["upgrade", "it is a hop-by-hop header"],
  // 100-continue is negotiated per connection by the transport, which refuses the header outright.
  ["expect", "the console's HTTP client negotiates 100-continue itself and sends no Expect"],
]);

/** RFC 9110's token characters: what a header name may hold. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII, spaces and tabs: no line breaks or other controls that could split the request. */
const HEADER_VALUE = /^[\x20-\x7E\t]*$/;

export interface HeaderProblem {
  /** The header as the caller named it. */
  name: string;
  code: "header_not_allowed" | "validation_failed";
  message: string;
}

/** Why the console refuses to send this header, or null when it may. */
export function headerProblem(name: string, value: string): HeaderProblem | null {
  const shown = name.length > 40 ? `${name.slice(0, 40)}…` : name;
  const refused = REFUSED_HEADERS.get(name.toLowerCase());
  if (refused) {
    return { name, code: "header_not_allowed", message: `The header ${shown} cannot be set: ${refused}.` };
  }
  const invalid = (why: string): HeaderProblem => ({ name, code: "validation_failed", message: why });
  if (name.length === 0) return invalid("A header needs a name.");
  if (name.length > MAX_HEADER_NAME_LENGTH)
    return invalid(`A header name has at most ${MAX_HEADER_NAME_LENGTH} characters.`);
  if (!HEADER_NAME.test(name))
    return invalid(
      `The header name ${JSON.stringify(shown)} may use only letters, digits and !#$%&'*+.^_\`|~-.`,
    );
  if (value.length > MAX_HEADER_VALUE_LENGTH)
    return invalid(`The value of ${shown} has at most ${MAX_HEADER_VALUE_LENGTH} characters.`);
  if (!HEADER_VALUE.test(value))
    return invalid(`The value of ${shown} may use only visible ASCII characters, spaces and tabs.`);
  return null;
}

/** Every problem of a header set: each header's own, too many of them, and a name given twice. */
export function headerProblems(headers: Record<string, string>): HeaderProblem[] {
  const entries = Object.entries(headers);
  const problems: HeaderProblem[] = [];
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const problem = headerProblem(name, value);
    if (problem) problems.push(problem);
    const lower = name.toLowerCase();
    if (seen.has(lower)) {
      problems.push({ name, code: "validation_failed", message: `The header ${name} is given twice.` });
    }
    seen.add(lower);
  }
  if (entries.length > MAX_FREE_FORM_HEADERS) {
    problems.push({
      name: "(headers)",
      code: "validation_failed",
      message: `A request has at most ${MAX_FREE_FORM_HEADERS} headers.`,
    });
  }
  return problems;
}

/** The value of a header, its name matched case-insensitively. */
export function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  return Object.entries(headers).find(([key]) => key.toLowerCase() === lower)?.[1];
}

/** The headers without one name (case-insensitive). */
export function withoutHeader(headers: Record<string, string>, name: string): Record<string, string> {
  const lower = name.toLowerCase();
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== lower));
}

/** UTF-8 length of a body, as it goes over the wire. */
export function bodyBytes(body: string): number {
  return new TextEncoder().encode(body).length;
}

/**
 * A request body as pages read it: a free-form request keeps the text it sent, read here as JSON when it is
 * JSON (so that its card, fields and differences show as an inquiry's do), else as the text.
 */
export function readableRequestBody(body: unknown): unknown {
  if (typeof body !== "string") return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}
