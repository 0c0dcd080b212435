/**
 * The three ways the sandbox is reached, so that one suite runs against each: the handler in-process, the
 * standalone HTTP server (`npm run sandbox`), and the console's Next.js catch-all route module (/sandbox/*).
 */
import * as route from "@/app/sandbox/[...path]/route";
import { createSandbox, type Sandbox, type SandboxOptions } from "@/lib/sandbox";
import { startSandboxServer } from "@/lib/sandbox/server";
import { setEmbeddedSandboxForTests } from "@/lib/server/root";

export interface Connection {
  sandbox: Sandbox;
  /** Sends a request to a sandbox path such as /reporting/v1/auth/token. */
  send: (path: string, init?: RequestInit) => Promise<Response>;
  close: () => Promise<void>;
}

export interface Transport {
  name: string;
  connect: (options?: SandboxOptions) => Promise<Connection>;
}

const routeHandlers: Record<string, (request: Request) => Promise<Response>> = {
  GET: route.GET,
  POST: route.POST,
  PUT: route.PUT,
  PATCH: route.PATCH,
  DELETE: route.DELETE,
  HEAD: route.HEAD,
  OPTIONS: route.OPTIONS,
};

/** Like fetch: the promise rejects when the caller aborts, even if the handler answers afterwards. */
function rejectOnAbort(
  response: Promise<Response>,
  signal: AbortSignal | null | undefined,
): Promise<Response> {
  if (!signal) return response;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new DOMException("The operation was aborted.", "AbortError"));
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    response.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export const TRANSPORTS: Transport[] = [
  {
    name: "in-process handler",
    connect: async (options) => {
      const sandbox = createSandbox(options);
      return {
        sandbox,
        send: (path, init) =>
          rejectOnAbort(sandbox.handle(new Request(`http://sandbox.test${path}`, init)), init?.signal),
        close: async () => undefined,
      };
    },
  },
  {
    name: "standalone HTTP server",
    connect: async (options) => {
      const sandbox = createSandbox(options);
      const server = await startSandboxServer({ port: 0, sandbox });
      return { sandbox, send: (path, init) => fetch(`${server.url}${path}`, init), close: server.close };
    },
  },
  {
    name: "console route /sandbox/[...path]",
    connect: async (options) => {
      // The embedded singleton, configured for the test (clock, timings) as getEmbeddedSandbox would create it.
      const sandbox = createSandbox({ ...options, basePath: "/sandbox" });
      setEmbeddedSandboxForTests(sandbox);
      return {
        sandbox,
        send: (path, init) => {
          const request = new Request(`http://localhost:3000/sandbox${path}`, init);
          const handler = routeHandlers[request.method];
          if (!handler) throw new Error(`the route exports no ${request.method}`);
          return rejectOnAbort(handler(request), init?.signal);
        },
        close: async () => {
          setEmbeddedSandboxForTests(undefined);
        },
      };
    },
  },
];
