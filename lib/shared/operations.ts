/**
 * The operation registry: every Card Services API operation the console runs, described once. The sandbox's
 * router, the typed client, the route handlers, the pages, the diff, the spec comparison and the history all
 * read it. Isomorphic and zod-free on purpose (the browser bundles it): the input schemas themselves live in
 * lib/shared/contracts.ts under the name given here.
 */

export const OPERATIONS = ["token", "gift_balance_inquiry", "balance_inquiry", "transaction_lookup"] as const;
export type OperationName = (typeof OPERATIONS)[number];

/** The scope both balance operations need (the sandbox's documented rule, docs/design.md §5). */
export const TRANSACTIONS_SCOPE = "read:transactions";

export interface OperationSpec {
  name: OperationName;
  /** What people read: page titles, history rows, diff facts. */
  label: string;
  method: "GET" | "POST";
  /** Which configured address the path hangs below: `{auth_url}` or `{base_url}`. */
  base: "auth" | "base";
  /** Below its base; `{request_id}` stands for the URL-encoded Request Id. */
  path: string;
  /** The scope a token needs for it; null for the token request itself. */
  requiredScope: string | null;
  /** The status the specification promises on success. */
  successStatus: number;
  /** True when a call records a transaction upstream (never retried blindly; confirmed in production). */
  recordsTransaction: boolean;
  /** True when the call carries a Request Id (X-Request-Id header or the path's `{request_id}`). */
  takesRequestId: boolean;
  /** True when its input is the card request body (API specification §2.3): the inquiry page offers it. */
  takesCard: boolean;
  /** The name of the export of lib/shared/contracts.ts that validates the console route's input. */
  inputSchema:
    | "credentialsInputSchema"
    | "giftBalanceInquiryInputSchema"
    | "balanceInquiryInputSchema"
    | "transactionLookupParamsSchema";
}

export const OPERATION_SPECS = {
  token: {
    name: "token",
    label: "Token request",
    method: "POST",
    base: "auth",
    path: "/reporting/v1/auth/token",
    requiredScope: null,
    successStatus: 200,
    recordsTransaction: false,
    takesRequestId: false,
    takesCard: false,
    inputSchema: "credentialsInputSchema",
  },
  gift_balance_inquiry: {
    name: "gift_balance_inquiry",
    label: "Gift Balance Inquiry",
    method: "POST",
    base: "base",
    path: "/transaction/v1/gift/balance-inquiry",
    requiredScope: TRANSACTIONS_SCOPE,
    successStatus: 201,
    recordsTransaction: true,
    takesRequestId: true,
    takesCard: true,
    inputSchema: "giftBalanceInquiryInputSchema",
  },
  balance_inquiry: {
    name: "balance_inquiry",
    label: "Balance Inquiry",
    method: "POST",
    base: "base",
    path: "/transaction/v1/balance-inquiry",
    requiredScope: TRANSACTIONS_SCOPE,
    successStatus: 200,
    recordsTransaction: false,
    takesRequestId: false,
    takesCard: true,
    inputSchema: "balanceInquiryInputSchema",
  },
  transaction_lookup: {
    name: "transaction_lookup",
    label: "Lookup by Request Id",
    method: "GET",
    base: "base",
    /** The embedded sandbox's path (docs/design.md §5); the specification does not show the real one. */
    path: "/transaction/v1/transactions/request-id/{request_id}",
    requiredScope: TRANSACTIONS_SCOPE,
    successStatus: 200,
    recordsTransaction: false,
    takesRequestId: true,
    takesCard: false,
    inputSchema: "transactionLookupParamsSchema",
  },
} as const satisfies { [Name in OperationName]: OperationSpec & { name: Name } };

const REQUEST_ID_PLACEHOLDER = "{request_id}";

/** The operations whose input is the card request body: what /inquiry offers and remembers. */
export type InquiryOperation = {
  [Name in OperationName]: (typeof OPERATION_SPECS)[Name]["takesCard"] extends true ? Name : never;
}[OperationName];

export const INQUIRY_OPERATIONS: readonly InquiryOperation[] = OPERATIONS.filter(
  (name): name is InquiryOperation => OPERATION_SPECS[name].takesCard,
);

export function operationLabel(operation: OperationName): string {
  return OPERATION_SPECS[operation].label;
}

/** The operations a scope enables, by label. */
export function operationsNeeding(scope: string): OperationSpec[] {
  return OPERATIONS.map((name) => OPERATION_SPECS[name]).filter((spec) => spec.requiredScope === scope);
}

/**
 * Why `value` cannot stand as one segment of an operation's path, or null when it can. URL encoding keeps `.`
 * and `..` as they are, and every URL parser then removes them with the segment before: the call would leave
 * the operation's path (`…/request-id/..` is `…/transactions/`). A slash or backslash is refused as well, so a
 * value is one segment whatever a server between decodes.
 */
export function pathSegmentProblem(value: string): string | null {
  if (value.length === 0) return "must not be empty: it is a segment of the operation's path";
  if (value === "." || value === "..") {
    return `cannot be ${JSON.stringify(value)}: a path segment of dots would leave the operation's path`;
  }
  if (/[/\\]/.test(value)) return "cannot contain / or \\: it is one segment of the operation's path";
  return null;
}

/** Thrown for a path segment `pathSegmentProblem` refuses: the route refuses such input before (400). */
export class PathSegmentError extends Error {
  override name = "PathSegmentError";
}

/** The path below the operation's base, with the Request Id filled in (URL-encoded) where it takes one. */
export function operationPath(operation: OperationName, requestId = ""): string {
  const template: string = OPERATION_SPECS[operation].path;
  if (!template.includes(REQUEST_ID_PLACEHOLDER)) return template;
  const problem = pathSegmentProblem(requestId);
  if (problem) throw new PathSegmentError(`The Request Id ${problem}.`);
  return template.replace(REQUEST_ID_PLACEHOLDER, encodeURIComponent(requestId));
}

/**
 * Which operation a request path names, for a router: the operation, and the still-encoded Request Id of a
 * path that carries one (one non-empty segment). Null for any other path.
 */
export function matchOperationPath(
  path: string,
): { operation: OperationName; encodedRequestId?: string } | null {
  for (const operation of OPERATIONS) {
    const template: string = OPERATION_SPECS[operation].path;
    const at = template.indexOf(REQUEST_ID_PLACEHOLDER);
    if (at < 0) {
      if (path === template) return { operation };
      continue;
    }
    const prefix = template.slice(0, at);
    const suffix = template.slice(at + REQUEST_ID_PLACEHOLDER.length);
    if (!path.startsWith(prefix) || !path.endsWith(suffix)) continue;
    const encoded = path.slice(prefix.length, path.length - suffix.length);
    if (encoded && !encoded.includes("/")) return { operation, encodedRequestId: encoded };
  }
  return null;
}
