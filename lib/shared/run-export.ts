/**
 * History runs in the formats other tools read: a Postman v2.1 collection (each run one request as it was sent,
 * its answer kept as the request's saved example) and HAR 1.2 (browser devtools, proxies, load tools). Card
 * numbers stay as the history shows them; the redacted token and secret become Postman variables to fill in.
 */
import type { EnvironmentInfo, ExchangeRecord } from "./contracts";
import { responseData } from "./exchange-summary";
import { operationLabel, operationPath } from "./operations";
import { FRESH_REQUEST_ID, TOKEN_PRE_REQUEST } from "./postman-scripts";
import { REDACTED } from "./redaction";
import { runTargets, type RunTarget, type RunTargets } from "./run-export-targets";

const POSTMAN_SCHEMA = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

interface NameValue {
  name: string;
  value: string;
}

const headerList = (headers: Record<string, string>): NameValue[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

const bodyText = (body: unknown): string | undefined =>
  body === undefined || body === null
    ? undefined
    : typeof body === "string"
      ? body
      : JSON.stringify(body, null, 2);

/** The Content-Type the request was sent with (a free-form request may send any). */
function contentTypeOf(exchange: ExchangeRecord): string {
  const found = Object.entries(exchange.request.headers).find(
    ([name]) => name.toLowerCase() === "content-type",
  );
  return found?.[1] ?? "application/json";
}

/** The body as sent: a free-form request's text as it is (raw), a recorded JSON body pretty-printed. */
function sentBody(exchange: ExchangeRecord): string | undefined {
  return bodyText(exchange.request.body)?.replace(JSON.stringify(REDACTED), '"{{client_secret}}"');
}

const isAuthorization = (name: string) => name.toLowerCase() === "authorization";
const isRequestId = (name: string) => name.toLowerCase() === "x-request-id";

const event = (listen: "prerequest", source: string) => ({
  listen,
  script: { type: "text/javascript", exec: source.trim().split("\n") },
});

/**
 * A masked card number as the history keeps it (first 6, last 4), in a JSON body: pretty-printed by the
 * console, or spaced as the engineer wrote a free-form body.
 */
const MASKED_CARD = /("card_number"\s*:\s*")(\d{6}\*+(\d{4}))"/g;

/** The Postman variable standing for the full number of a masked card: the API refuses the masked one. */
const cardVariable = (last4: string) => `card_${last4}`;

function maskedCardsOf(exchanges: readonly ExchangeRecord[]): Map<string, string> {
  const cards = new Map<string, string>();
  for (const exchange of exchanges) {
    for (const match of (sentBody(exchange) ?? "").matchAll(MASKED_CARD)) {
      cards.set(cardVariable(match[3] ?? ""), match[2] ?? "");
    }
  }
  return cards;
}

/** The card's last 4 as the run's body shows it (masked), for the request's name. */
function cardLast4Of(exchange: ExchangeRecord): string | null {
  const [match] = (sentBody(exchange) ?? "").matchAll(MASKED_CARD);
  return match?.[3] ?? null;
}

/** What came back, in a word or two: `201 approved`, `404`, `no answer`. */
function resultOf(exchange: ExchangeRecord): string {
  const { status } = exchange.response;
  if (status === 0) return "no answer";
  const verdict = (responseData(exchange) ?? {}).response_status;
  return typeof verdict === "string" ? `${status} ${verdict}` : String(status);
}

/** A request named as a person would: `Gift Balance Inquiry · …0001 · 201 approved`. */
export function postmanItemName(exchange: ExchangeRecord): string {
  const last4 = cardLast4Of(exchange);
  return [operationLabel(exchange.operation), last4 ? `…${last4}` : null, resultOf(exchange)]
    .filter(Boolean)
    .join(" · ");
}

/** Before a run that cannot be sent from here: one failed check saying why, and nothing sent. */
const cannotRunScript = (reason: string) => `
pm.test("This run can be sent from here", function () {
  throw new Error(${JSON.stringify(reason)});
});
pm.execution.skipRequest();
`;

function postmanItem({ exchange, url, cannotRun }: RunTarget) {
  const sent = headerList(exchange.request.headers);
  const bearer = sent.some(({ name, value }) => isAuthorization(name) && value.includes(REDACTED));
  // The redacted token comes from the collection's auth (its script gets one); anything else is kept as sent.
  const header = sent
    .filter(({ name }) => !(bearer && isAuthorization(name)))
    .map(({ name, value }) => ({ key: name, value }));
  const raw = sentBody(exchange)?.replace(
    MASKED_CARD,
    (_match, prefix: string, _masked: string, last4: string) => `${prefix}{{${cardVariable(last4)}}}"`,
  );
  const language = /json/i.test(contentTypeOf(exchange)) ? "json" : "text";
  const request = {
    method: exchange.request.method,
    header,
    url,
    ...(bearer ? {} : { auth: { type: "noauth" } }),
    ...(raw === undefined ? {} : { body: { mode: "raw", raw, options: { raw: { language } } } }),
  };
  // A Request Id is single-use (409 on a second send): each send gets a new one.
  const freshId = sent.some(({ name }) => isRequestId(name));
  const scripts = [
    ...(cannotRun ? [cannotRunScript(cannotRun)] : []),
    ...(freshId ? [FRESH_REQUEST_ID] : []),
  ];
  return {
    name: `${postmanItemName(exchange)}${cannotRun ? " (cannot run here)" : ""}`,
    description: `Recorded in ${exchange.environment} at ${exchange.started_at}.${cannotRun ? ` ${cannotRun}` : ""}`,
    ...(scripts.length > 0 ? { event: [event("prerequest", scripts.join("\n"))] } : {}),
    request,
    response: [
      {
        name: `As answered (${exchange.response.status})`,
        originalRequest: request,
        code: exchange.response.status,
        header: headerList(exchange.response.headers).map(({ name, value }) => ({ key: name, value })),
        body: bodyText(exchange.response.body) ?? "",
        _postman_previewlanguage: exchange.response.body_is_text ? "text" : "json",
      },
    ],
  };
}

/** `{auth_url}` of the runs: a token run's address without its path, else a run's base (the embedded case). */
function authUrlOfRuns(exchanges: readonly ExchangeRecord[]): string {
  const token = exchanges.find((exchange) => exchange.operation === "token");
  const tokenPath = operationPath("token");
  if (token?.request.url.endsWith(tokenPath)) return token.request.url.slice(0, -tokenPath.length);
  for (const { request } of exchanges) {
    const at = request.url.indexOf("/transaction/v1/");
    if (at > 0) return request.url.slice(0, at);
  }
  return "";
}

function clientIdOfRuns(exchanges: readonly ExchangeRecord[]): string {
  for (const { operation, request } of exchanges) {
    const body = request.body as { client_id?: unknown } | null;
    if (operation === "token" && typeof body?.client_id === "string") return body.client_id;
  }
  return "";
}

/**
 * The runs as a Postman collection. With `here` (this console's environments, as the session lists them), each
 * run goes to this console's address for its environment, and a run that cannot (lib/shared/run-export-targets)
 * says so in its name and fails one check instead of being sent; without it, each goes where it was sent.
 */
export function runsAsPostmanCollection(
  exchanges: readonly ExchangeRecord[],
  name: string,
  here?: readonly EnvironmentInfo[],
) {
  const targets: RunTargets = here
    ? runTargets(exchanges, here)
    : {
        authUrl: authUrlOfRuns(exchanges),
        runs: exchanges.map((exchange) => ({ exchange, url: exchange.request.url, cannotRun: null })),
      };
  const variable = (key: string, value = "", description?: string) => ({
    key,
    value,
    type: "string",
    ...(description ? { description } : {}),
  });
  const cards = [...maskedCardsOf(exchanges)].map(([key, masked]) =>
    variable(key, "", `The full card number (the history keeps only ${masked}).`),
  );
  return {
    info: {
      name,
      description:
        "Runs exported from the Card Services Console's history. Fill in client_id, client_secret and the " +
        "card_<last 4> variables (full card numbers): the collection requests its token from authUrl, and " +
        "each Gift Balance Inquiry gets a new Request Id.",
      schema: POSTMAN_SCHEMA,
    },
    auth: { type: "bearer", bearer: [{ key: "token", value: "{{accessToken}}", type: "string" }] },
    event: [event("prerequest", TOKEN_PRE_REQUEST)],
    variable: [
      variable("authUrl", targets.authUrl),
      variable("client_id", clientIdOfRuns(exchanges)),
      variable("client_secret"),
      variable("accessToken"),
      variable("accessTokenExpiresAt", "0"),
      variable("accessTokenFor"),
      ...cards,
    ],
    item: targets.runs.map(postmanItem),
  };
}

/** A HAR query string; a record kept before its address was absolute has none rather than failing the export. */
function queryOf(url: string): NameValue[] {
  if (!URL.canParse(url)) return [];
  return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
}

function harEntry(exchange: ExchangeRecord) {
  const text = sentBody(exchange);
  const answer = bodyText(exchange.response.body) ?? "";
  return {
    startedDateTime: exchange.started_at,
    time: exchange.duration_ms,
    request: {
      method: exchange.request.method,
      url: exchange.request.url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: headerList(exchange.request.headers),
      queryString: queryOf(exchange.request.url),
      ...(text === undefined ? {} : { postData: { mimeType: contentTypeOf(exchange), text } }),
      headersSize: -1,
      bodySize: text === undefined ? 0 : new TextEncoder().encode(text).length,
    },
    response: {
      status: exchange.response.status,
      statusText: "",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: headerList(exchange.response.headers),
      content: {
        size: new TextEncoder().encode(answer).length,
        mimeType: exchange.response.headers["content-type"] ?? "application/json",
        text: answer,
      },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: exchange.duration_ms, receive: 0 },
    comment: `${exchange.operation} in ${exchange.environment}`,
  };
}

export function runsAsHar(exchanges: readonly ExchangeRecord[], version: string) {
  return {
    log: {
      version: "1.2",
      creator: { name: "Card Services Console", version },
      entries: exchanges.map(harEntry),
    },
  };
}
