/**
 * History runs in the formats other tools read: a Postman v2.1 collection (each run one request as it was sent,
 * its answer kept as the request's saved example) and HAR 1.2 (browser devtools, proxies, load tools). Card
 * numbers stay as the history shows them; the redacted token and secret become Postman variables to fill in.
 */
import type { ExchangeRecord } from "./contracts";
import { REDACTED } from "./redaction";

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

/** The request as sent, with the redacted bearer token and client secret as variables. */
function sentHeaders(exchange: ExchangeRecord): NameValue[] {
  return headerList(exchange.request.headers).map(({ name, value }) =>
    name.toLowerCase() === "authorization" && value.includes(REDACTED)
      ? { name, value: "Bearer {{accessToken}}" }
      : { name, value },
  );
}

function sentBody(exchange: ExchangeRecord): string | undefined {
  return bodyText(exchange.request.body)?.replace(JSON.stringify(REDACTED), '"{{client_secret}}"');
}

function postmanItem(exchange: ExchangeRecord) {
  const header = sentHeaders(exchange).map(({ name, value }) => ({ key: name, value }));
  const raw = sentBody(exchange);
  const request = {
    method: exchange.request.method,
    header,
    url: exchange.request.url,
    ...(raw === undefined ? {} : { body: { mode: "raw", raw, options: { raw: { language: "json" } } } }),
  };
  return {
    name: `${exchange.operation} · ${exchange.environment} · ${exchange.started_at}`,
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

export function runsAsPostmanCollection(exchanges: readonly ExchangeRecord[], name: string) {
  return {
    info: {
      name,
      description:
        "Runs exported from the Card Services Console's history. Fill in accessToken (and client_secret).",
      schema: POSTMAN_SCHEMA,
    },
    variable: [
      { key: "accessToken", value: "", type: "string" },
      { key: "client_secret", value: "", type: "string" },
    ],
    item: exchanges.map(postmanItem),
  };
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
      queryString: [...new URL(exchange.request.url).searchParams].map(([name, value]) => ({ name, value })),
      ...(text === undefined ? {} : { postData: { mimeType: "application/json", text } }),
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
