/**
 * "Copy as cURL" and "Copy as fetch" for an exchange record: code that runs as copied, in a POSIX shell
 * (bash, zsh) or in Node 20+ (as an ES module: `node request.mjs`), against the same address.
 *
 * - What the browser never has is read from the environment the language's way: `$ACCESS_TOKEN` /
 *   `process.env.ACCESS_TOKEN`, and `CLIENT_SECRET` for a token request; a missing one stops with a message.
 * - A Gift Balance Inquiry gets a fresh Request Id on every run (a reused one is a 409 duplicate_request_id):
 *   `$(cat /proc/sys/kernel/random/uuid 2>/dev/null || uuidgen)` in the shell — the Linux kernel's UUID file
 *   needs no package, and macOS, which has no /proc, ships uuidgen — and `crypto.randomUUID()` in Node.
 * - The card number is never the masked one (the API refuses it): the full number the user typed, when the
 *   caller passes it and it matches the recorded mask, else `CARD_NUMBER` from the environment.
 * - With `token`, the code first requests a token with the session's client_id and `CLIENT_SECRET`.
 */
import { isCardNumber } from "@/lib/shared/card-number";
import type { ExchangeRecord } from "@/lib/shared/contracts";

export interface TokenRequestTarget {
  /** `{auth_url}/reporting/v1/auth/token` of the environment. */
  url: string;
  clientId: string;
}

export interface CodeExportOptions {
  /** The full card number as the user typed it; used only when it matches the recorded masked number. */
  fullCardNumber?: string | null;
  /** Fetch the access token first ("with token request"); otherwise ACCESS_TOKEN must be set. */
  token?: TokenRequestTarget | null;
}

const ACCESS_TOKEN_VARIABLE = "ACCESS_TOKEN";
const CLIENT_SECRET_VARIABLE = "CLIENT_SECRET";
const CARD_NUMBER_VARIABLE = "CARD_NUMBER";

/** The shell's fresh UUID, portable across Linux (kernel file) and macOS (uuidgen). */
const SHELL_UUID = "$(cat /proc/sys/kernel/random/uuid 2>/dev/null || uuidgen)";

/** Stand-ins written into JSON text, then turned into each language's expression. */
const SENTINEL = {
  secret: "__console_client_secret__",
  card: "__console_card_number__",
} as const;
type Sentinel = keyof typeof SENTINEL;

/** Headers a client sets by itself or that must not be replayed. */
const DROPPED_HEADERS = new Set([
  "host",
  "content-length",
  "connection",
  "accept-encoding",
  "user-agent",
  "cookie",
  "transfer-encoding",
]);

/** True when `masked` (e.g. 600649******0001) is the mask of `full`. */
export function matchesMask(masked: string, full: string): boolean {
  if (!isCardNumber(full) || masked.length !== full.length) return false;
  return [...masked].every((char, index) => char === "*" || char === full[index]);
}

function prepareBody(body: unknown, options: CodeExportOptions, used: Set<Sentinel>, key?: string): unknown {
  if (typeof body === "string") {
    if (key === "client_secret") {
      used.add("secret");
      return SENTINEL.secret;
    }
    if (key === "card_number") {
      if (options.fullCardNumber && matchesMask(body, options.fullCardNumber)) return options.fullCardNumber;
      if (/^\d+$/.test(body)) return body;
      used.add("card");
      return SENTINEL.card;
    }
    return body;
  }
  if (Array.isArray(body)) return body.map((item) => prepareBody(item, options, used));
  if (typeof body === "object" && body !== null) {
    return Object.fromEntries(
      Object.entries(body).map(([childKey, child]) => [
        childKey,
        prepareBody(child, options, used, childKey),
      ]),
    );
  }
  return body;
}

type HeaderValue = { literal: string } | { bearer: true } | { requestId: true };

interface PreparedRequest {
  method: string;
  url: string;
  headers: Array<[string, HeaderValue]>;
  /** JSON text (pretty) or raw text; null when the request had no body. */
  bodyText: string | null;
  bodyIsJson: boolean;
  /** The environment variables the body needs. */
  variables: Set<Sentinel>;
}

function prepareRequest(exchange: ExchangeRecord, options: CodeExportOptions): PreparedRequest {
  const { method, url, headers, body } = exchange.request;
  const prepared: Array<[string, HeaderValue]> = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (DROPPED_HEADERS.has(lower)) continue;
    if (lower === "authorization") prepared.push([name, { bearer: true }]);
    else if (lower === "x-request-id" && exchange.operation === "gift_balance_inquiry")
      prepared.push([name, { requestId: true }]);
    else prepared.push([name, { literal: value }]);
  }
  const needsBearer = exchange.operation !== "token";
  // The record may lack the header (e.g. a call refused before sending); every inquiry needs it.
  if (needsBearer && !prepared.some(([name]) => name.toLowerCase() === "authorization"))
    prepared.unshift(["Authorization", { bearer: true }]);
  if (
    exchange.operation === "gift_balance_inquiry" &&
    !prepared.some(([name]) => name.toLowerCase() === "x-request-id")
  )
    prepared.push(["X-Request-Id", { requestId: true }]);

  const variables = new Set<Sentinel>();
  if (body === undefined || body === null || body === "") {
    return { method, url, headers: prepared, bodyText: null, bodyIsJson: false, variables };
  }
  if (typeof body === "string") {
    return { method, url, headers: prepared, bodyText: body, bodyIsJson: false, variables };
  }
  const bodyText = JSON.stringify(prepareBody(body, options, variables), null, 2);
  return { method, url, headers: prepared, bodyText, bodyIsJson: true, variables };
}

/** Quotes a value for a POSIX shell: nothing inside single quotes is expanded. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

const SHELL_EXPANSIONS: Record<Sentinel, string> = {
  secret: `"\${${CLIENT_SECRET_VARIABLE}:?set ${CLIENT_SECRET_VARIABLE} to the client secret}"`,
  card: `"\${${CARD_NUMBER_VARIABLE}:?set ${CARD_NUMBER_VARIABLE} to the full card number}"`,
};

/** One shell word for text holding sentinels: quoted text joined with the variables' expansions. */
function shellWord(text: string): string {
  const pattern = new RegExp(`(${Object.values(SENTINEL).join("|")})`);
  return text
    .split(pattern)
    .map((part) => {
      const sentinel = (Object.keys(SENTINEL) as Sentinel[]).find((name) => SENTINEL[name] === part);
      if (sentinel) return SHELL_EXPANSIONS[sentinel];
      return part === "" ? "" : shellQuote(part);
    })
    .join("");
}

function cardNote(exchange: ExchangeRecord): string {
  const masked = JSON.stringify(exchange.request.body).match(/"card_number":"([^"]*)"/)?.[1];
  return masked ? ` (the console keeps only ${masked})` : "";
}

export function exchangeToCurl(exchange: ExchangeRecord, options: CodeExportOptions = {}): string {
  const request = prepareRequest(exchange, options);
  const comments: string[] = [];
  const prelude: string[] = [];
  const needsToken = request.headers.some(([, value]) => "bearer" in value);
  if (needsToken && options.token) {
    comments.push(`# Needs ${CLIENT_SECRET_VARIABLE}: the token is requested first.`);
    const tokenBody = JSON.stringify({
      client_id: options.token.clientId,
      client_secret: SENTINEL.secret,
      grant_type: "client_credentials",
    });
    prelude.push(
      `${ACCESS_TOKEN_VARIABLE}=$(curl -sS -X POST ${shellQuote(options.token.url)} \\`,
      `  -H 'Content-Type: application/json; charset=utf-8' \\`,
      `  --data-raw ${shellWord(tokenBody)} \\`,
      `  | sed -n 's/.*"access_token" *: *"\\([^"]*\\)".*/\\1/p')`,
      `: "\${${ACCESS_TOKEN_VARIABLE}:?the token request failed}"`,
    );
  } else if (needsToken) {
    comments.push(`# Needs ${ACCESS_TOKEN_VARIABLE}: the browser never holds the token.`);
  }
  if (request.variables.has("secret") && !options.token)
    comments.push(`# Needs ${CLIENT_SECRET_VARIABLE}: the browser never holds the secret.`);
  if (request.variables.has("card"))
    comments.push(`# Needs ${CARD_NUMBER_VARIABLE}: the full card number${cardNote(exchange)}.`);
  if (exchange.operation === "gift_balance_inquiry")
    comments.push("# A fresh Request Id per run: the same one twice is a 409 duplicate_request_id.");

  const lines = [`curl -sS -i -X ${request.method} ${shellQuote(request.url)}`];
  for (const [name, value] of request.headers) {
    if ("bearer" in value)
      lines.push(
        `  -H "${name}: Bearer \${${ACCESS_TOKEN_VARIABLE}:?set ${ACCESS_TOKEN_VARIABLE} to an access token}"`,
      );
    else if ("requestId" in value) lines.push(`  -H "${name}: ${SHELL_UUID}"`);
    else lines.push(`  -H ${shellQuote(`${name}: ${value.literal}`)}`);
  }
  if (request.bodyText !== null) lines.push(`  --data-raw ${shellWord(request.bodyText)}`);
  return [...comments, ...prelude, lines.join(" \\\n")].join("\n");
}

function indent(text: string, spaces: number): string {
  const pad = " ".repeat(spaces);
  return text
    .split("\n")
    .map((line, index) => (index === 0 ? line : pad + line))
    .join("\n");
}

const JS_EXPRESSIONS: Record<Sentinel, string> = {
  secret: `env("${CLIENT_SECRET_VARIABLE}")`,
  card: `env("${CARD_NUMBER_VARIABLE}")`,
};

/** JSON text with each quoted sentinel replaced by its JavaScript expression. */
function jsWithExpressions(jsonText: string): string {
  let text = jsonText;
  for (const name of Object.keys(SENTINEL) as Sentinel[]) {
    text = text.split(JSON.stringify(SENTINEL[name])).join(JS_EXPRESSIONS[name]);
  }
  return text;
}

/** Reads a variable the script needs, failing with its name when unset. */
const FETCH_ENV_HELPER = [
  `const env = (name) => {`,
  `  const value = process.env[name];`,
  `  if (!value) throw new Error(\`Set \${name} in the environment first.\`);`,
  `  return value;`,
  `};`,
];

export function exchangeToFetch(exchange: ExchangeRecord, options: CodeExportOptions = {}): string {
  const request = prepareRequest(exchange, options);
  const needsToken = request.headers.some(([, value]) => "bearer" in value);
  const fetchesToken = Boolean(needsToken && options.token);
  const needed = [
    ...(needsToken && !options.token ? [ACCESS_TOKEN_VARIABLE] : []),
    ...(request.variables.has("secret") || fetchesToken ? [CLIENT_SECRET_VARIABLE] : []),
    ...(request.variables.has("card") ? [CARD_NUMBER_VARIABLE] : []),
  ];
  const lines = [
    `// Node 20+ as an ES module (save as request.mjs, run \`node request.mjs\`).`,
    ...(needed.length > 0 ? [`// Reads ${needed.join(", ")} from the environment.`] : []),
    ...(request.variables.has("card")
      ? [`// ${CARD_NUMBER_VARIABLE}: the full card number${cardNote(exchange)}.`]
      : []),
    ...(needed.length > 0 ? FETCH_ENV_HELPER : []),
    ...(fetchesToken && options.token ? fetchTokenLines(options.token) : []),
    ...fetchRequestLines(
      request,
      fetchesToken ? "accessToken" : `env(${JSON.stringify(ACCESS_TOKEN_VARIABLE)})`,
    ),
  ];
  return lines.join("\n");
}

/** The token request, so that the script runs with the client secret alone. */
function fetchTokenLines(token: NonNullable<CodeExportOptions["token"]>): string[] {
  return [
    `const tokenResponse = await fetch(${JSON.stringify(token.url)}, {`,
    `  method: "POST",`,
    `  headers: { "Content-Type": "application/json; charset=utf-8" },`,
    `  body: JSON.stringify({`,
    `    client_id: ${JSON.stringify(token.clientId)},`,
    `    client_secret: env(${JSON.stringify(CLIENT_SECRET_VARIABLE)}),`,
    `    grant_type: "client_credentials",`,
    `  }),`,
    `});`,
    `if (!tokenResponse.ok) throw new Error(\`token request: \${tokenResponse.status} \${await tokenResponse.text()}\`);`,
    `const accessToken = (await tokenResponse.json()).data.attributes.access_token;`,
  ];
}

/** The request itself, its bearer token read from `bearer` (a JavaScript expression). */
function fetchRequestLines(request: PreparedRequest, bearer: string): string[] {
  const headerLines = request.headers.map(([name, value]) => {
    const expression =
      "bearer" in value
        ? `\`Bearer \${${bearer}}\``
        : "requestId" in value
          ? "crypto.randomUUID()"
          : JSON.stringify(value.literal);
    return `    ${JSON.stringify(name)}: ${expression},`;
  });
  const bodyLines =
    request.bodyText === null
      ? []
      : [
          request.bodyIsJson
            ? `  body: JSON.stringify(${indent(jsWithExpressions(request.bodyText), 2)}),`
            : `  body: ${JSON.stringify(request.bodyText)},`,
        ];
  return [
    `const response = await fetch(${JSON.stringify(request.url)}, {`,
    `  method: ${JSON.stringify(request.method)},`,
    `  headers: {`,
    ...headerLines,
    `  },`,
    ...bodyLines,
    `});`,
    `console.log(response.status, await response.text());`,
  ];
}
