/** A curl-like client of the console over HTTP with a cookie jar, for the integration tests. */
import { sealData, unsealData } from "iron-session";
import { expect } from "vitest";

/** startConsole's default SESSION_SECRET (test/support/console-server.ts). */
export const CONSOLE_TEST_SESSION_SECRET = "test-session-secret-that-is-at-least-32-characters-long";

export interface SendOptions {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** Same-origin by default on mutating calls; null omits it. */
  origin?: string | null;
}

export class ConsoleClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async send(method: string, path: string, options: SendOptions = {}): Promise<Response> {
    const headers = new Headers(options.headers);
    if (method !== "GET" && method !== "HEAD" && options.origin !== null && !headers.has("origin")) {
      headers.set("origin", options.origin ?? this.baseUrl);
    }
    let body = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
    if (this.cookies.size > 0 && !headers.has("cookie")) {
      headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body, redirect: "manual" });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const separator = pair.indexOf("=");
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      if (/max-age=0/i.test(header) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async json<T>(
    method: string,
    path: string,
    options: SendOptions = {},
  ): Promise<{ status: number; body: T; response: Response }> {
    const response = await this.send(method, path, options);
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T, response };
  }

  /** Opens the session cookie with the test secret (what only the server can do in real life). */
  async readSession(): Promise<Record<string, unknown>> {
    const value = this.cookies.get("csc_session");
    if (!value) throw new Error("no session cookie");
    return unsealData<Record<string, unknown>>(value, { password: { 1: CONSOLE_TEST_SESSION_SECRET } });
  }

  /** Replaces the session cookie with `data` sealed by the test secret. */
  async writeSession(data: Record<string, unknown>): Promise<void> {
    const value = await sealData(data, { password: { 1: CONSOLE_TEST_SESSION_SECRET }, ttl: 3600 });
    this.cookies.set("csc_session", value);
  }
}

/** A client whose session holds the embedded sandbox's demo credentials (asserted saved: 200). */
export async function demoClient(baseUrl: string): Promise<ConsoleClient> {
  const client = new ConsoleClient(baseUrl);
  const saved = await client.json("PUT", "/api/session/credentials", { body: { profile: "demo" } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return client;
}
