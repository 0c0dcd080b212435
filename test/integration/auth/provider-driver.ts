/**
 * Drives the test provider's pages the way a browser would, with a cookie jar and redirects followed by hand:
 * from the authorization address to the callback address the provider sends the browser back to.
 */
import { expect } from "vitest";

export class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string | undefined {
    return this.cookies.size
      ? [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
      : undefined;
  }

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const separator = pair.indexOf("=");
      if (separator <= 0) continue;
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      if (value === "" || /max-age=0\b/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/** One request with the jar's cookies, redirects not followed. */
export async function jarFetch(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = jar.header();
  if (cookie) headers.set("Cookie", cookie);
  const response = await fetch(url, { ...init, headers, redirect: "manual" });
  jar.store(response);
  return response;
}

/**
 * Follows redirects from `url` until the provider answers a page (returned) or redirects to an address starting
 * with `stopAt` (returned as `callbackUrl`, not fetched: that is the console's job).
 */
export async function followUntil(
  jar: CookieJar,
  url: string,
  stopAt: string,
  init?: RequestInit,
): Promise<{ callbackUrl: string } | { page: Response; url: string }> {
  let response = await jarFetch(jar, url, init);
  let current = url;
  for (let hops = 0; hops < 10; hops += 1) {
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) return { page: response, url: current };
    current = new URL(location, current).href;
    if (current.startsWith(stopAt)) return { callbackUrl: current };
    response = await jarFetch(jar, current);
  }
  throw new Error("too many redirects");
}

/** Signs in at the provider as `username` from the authorization address; returns the callback address. */
export async function signInAtProvider(
  authorizationUrl: string,
  redirectUri: string,
  username: string,
  password: string,
  jar: CookieJar = new CookieJar(),
): Promise<string> {
  const first = await followUntil(jar, authorizationUrl, redirectUri);
  if ("callbackUrl" in first) return first.callbackUrl;
  expect(first.page.status).toBe(200);
  const html = await first.page.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no sign-in form in: ${html.slice(0, 300)}`);
  const submitted = await followUntil(jar, new URL(action, first.url).href, redirectUri, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }).toString(),
  });
  if ("callbackUrl" in submitted) return submitted.callbackUrl;
  throw new Error(
    `sign-in at the provider stopped at ${submitted.page.status}: ${(await submitted.page.text()).slice(0, 300)}`,
  );
}
