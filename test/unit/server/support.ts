/**
 * In-process harness for the console's route handlers: configure the server, call a route module's
 * handler with a plain Request, and keep cookies between calls like a browser would.
 */
import * as credentialsRoute from "@/app/api/session/credentials/route";
import { LOCAL_USER } from "@/lib/server/identity";
import type { ServerConfig } from "@/lib/server/config";
import { getServices, setConfigForTests, type RootOptions } from "@/lib/server/root";
import { getSession, type Session } from "@/lib/server/session";
import { seedDataDir } from "@/test/support/pglite-template";
import { fileTempDir } from "@/test/support/temp-dirs";
import { expect } from "vitest";

export const TEST_SESSION_SECRET = "unit-test-session-secret-with-at-least-32-chars";
export const ORIGIN = "http://localhost:3000";

/**
 * One embedded database per test file, created on the file's first configure(). Files run one after another
 * in a worker that keeps this module loaded, so the folder is remembered with the file it belongs to.
 */
const dataDirs = new Map<string | undefined, string>();

function fileDataDir(): string {
  const file = expect.getState().testPath;
  let dataDir = dataDirs.get(file);
  if (!dataDir) {
    dataDir = newDataDir();
    dataDirs.set(file, dataDir);
  }
  return dataDir;
}

/** A fresh DATA_DIR holding a copy of the run's migrated template (test/setup/pglite.ts) when there is one. */
function newDataDir(): string {
  const folder = fileTempDir("console-unit-");
  seedDataDir(folder);
  return folder;
}

export function configure(
  env: Record<string, string | undefined> = {},
  options: RootOptions = {},
): ServerConfig {
  return setConfigForTests(
    {
      SESSION_SECRET: TEST_SESSION_SECRET,
      PORT: "3000",
      DATA_DIR: fileDataDir(),
      AUDIT_HMAC_KEY: "unit-test-audit-hmac-key-of-at-least-32-characters",
      ...env,
    },
    options,
  );
}

type Handler = (request: Request) => Promise<Response>;

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is. */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Defaults to the console's own origin on mutating calls; `null` omits the header. */
  origin?: string | null;
  base?: string;
}

/** A browser-like cookie jar for one origin: remembers Set-Cookie (incl. Max-Age=0 deletion). */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const separator = pair.indexOf("=");
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      if (/max-age=0/i.test(header) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

export async function call(
  handler: Handler,
  method: string,
  path: string,
  options: CallOptions = {},
  jar?: CookieJar,
): Promise<Response> {
  const base = options.base ?? ORIGIN;
  const headers = new Headers(options.headers);
  const mutating = method !== "GET" && method !== "HEAD";
  if (mutating && options.origin !== null && !headers.has("origin"))
    headers.set("origin", options.origin ?? base);
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const cookie = jar?.header();
  if (cookie && !headers.has("cookie")) headers.set("cookie", cookie);
  const response = await handler(new Request(`${base}${path}`, { method, headers, body }));
  jar?.store(response);
  return response;
}

/** Saves the demo credentials in `jar`'s session through the route, as `headers`' caller; its answer. */
export function saveDemoCredentials(jar: CookieJar, headers?: Record<string, string>): Promise<Response> {
  return call(
    credentialsRoute.PUT,
    "PUT",
    "/api/session/credentials",
    { body: { profile: "demo" }, headers },
    jar,
  );
}

/** A cookie jar whose session holds the demo credentials, saved through the route (asserted 200). */
export async function demoSession(): Promise<CookieJar> {
  const jar = new CookieJar();
  expect((await saveDemoCredentials(jar)).status).toBe(200);
  return jar;
}

export async function readJson<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** The request's session, owned by the local user (as the route wrapper does in AUTH_MODE=none). */
export async function openSession(request: Request): Promise<Session> {
  const session = await getSession(request, (await getServices()).sessions);
  session.setOwner({ id: LOCAL_USER.id, roles: LOCAL_USER.roles });
  return session;
}
