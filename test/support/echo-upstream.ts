/**
 * A hostile upstream for leak tests: the sandbox, wrapped so that it issues opaque (non-JWT) tokens and
 * repeats every client secret and bearer token it receives — as is and base64-encoded — in error details,
 * response headers and bodies. Whatever the console records from it must hold none of them.
 */
import { randomBytes } from "node:crypto";

type Handler = (request: Request) => Promise<Response>;

export interface EchoingUpstream {
  wrap(handler: Handler): Handler;
  /** Every secret and token the upstream saw or issued (the values that must never be kept). */
  seen(): string[];
}

function b64(value: string): string {
  return Buffer.from(value).toString("base64");
}

function echoText(values: string[]): string {
  return values.map((value) => `${value} (${b64(value)})`).join(", ");
}

/** Adds the echoes to a JSON body: in error details, and in fields certification reads. */
function echoBody(body: unknown, values: string[]): unknown {
  if (!body || typeof body !== "object" || values.length === 0) return body;
  const copy = structuredClone(body) as Record<string, unknown>;
  const text = echoText(values);
  if (Array.isArray(copy.errors)) {
    copy.errors = (copy.errors as Record<string, unknown>[]).map((error) => ({
      ...error,
      detail: `refused credentials: ${text}`,
    }));
  }
  const data = copy.data as Record<string, unknown> | undefined;
  // Fields that checks describe when they differ (the token stays usable, so card calls happen too).
  if (data && typeof data === "object" && !data.attributes) data.transaction_id = text;
  copy.meta = { ...(copy.meta as object), version: `1.0.0 ${text}`, request_id: text };
  copy.echo = text;
  return copy;
}

export function echoingUpstream(): EchoingUpstream {
  const seen = new Set<string>();
  /** opaque token → the sandbox's JWT, so that the sandbox still accepts what it issued. */
  const opaque = new Map<string, string>();

  async function received(request: Request): Promise<{ request: Request; values: string[] }> {
    const values: string[] = [];
    const headers = new Headers(request.headers);
    const bearer = /^Bearer (.+)$/.exec(headers.get("authorization") ?? "")?.[1];
    if (bearer) {
      values.push(bearer);
      headers.set("authorization", `Bearer ${opaque.get(bearer) ?? bearer}`);
    }
    const body = request.method === "POST" ? await request.text() : undefined;
    const secret = body ? /"client_secret"\s*:\s*"([^"]*)"/.exec(body)?.[1] : undefined;
    if (secret) values.push(secret);
    for (const value of values) seen.add(value);
    return { request: new Request(request.url, { method: request.method, headers, body }), values };
  }

  async function issueOpaque(response: Response, values: string[]): Promise<Response> {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
      const attributes = (body as { data?: { attributes?: { access_token?: string } } }).data?.attributes;
      if (attributes?.access_token) {
        const token = `opaque-${randomBytes(18).toString("hex")}`;
        opaque.set(token, attributes.access_token);
        seen.add(token);
        attributes.access_token = token;
        values.push(token);
      }
    } catch {
      return new Response(`${text} ${echoText(values)}`, response);
    }
    const headers = new Headers(response.headers);
    headers.set("x-echo", echoText(values));
    headers.set("www-authenticate", `Bearer error="invalid_token", error_description="${echoText(values)}"`);
    return Response.json(echoBody(body, values), { status: response.status, headers });
  }

  return {
    wrap: (handler) => async (incoming) => {
      const { request, values } = await received(incoming);
      return issueOpaque(await handler(request), values);
    },
    seen: () => [...seen],
  };
}

/** Each value as it could appear: itself and base64-encoded. */
export function leakForms(values: string[]): string[] {
  return values.flatMap((value) => [value, b64(value)]);
}
