/**
 * The sandbox as a plain HTTP server (`npm run sandbox`), bridging node:http to the same Web handler the
 * console mounts at /sandbox. Streams request bodies in, streams responses out, and aborts the Request's
 * signal when the client disconnects.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { DEFAULT_DEMO_SECRET, DEMO_CLIENTS } from "./fixtures";
import { jsonResponse, methodNotAllowed } from "./http";
import { createSandbox, type Sandbox, type SandboxConnection } from "./index";
import { sandboxOpenApiDocument } from "./openapi";
import { readSandboxSettings, sandboxOptionsFrom, type SandboxSettings } from "./settings";

export interface SandboxServerOptions {
  port: number;
  host?: string;
  sandbox?: Sandbox;
  /** SANDBOX_DEMO_SECRET, so that /openapi.json publishes the demo secret only when it is the default. */
  demoSecret?: string;
}

export interface SandboxServer {
  /** e.g. http://127.0.0.1:4010 (no trailing slash). */
  url: string;
  close: () => Promise<void>;
}

export async function startSandboxServer({
  port,
  host = "127.0.0.1",
  sandbox = createSandbox(),
  demoSecret,
}: SandboxServerOptions): Promise<SandboxServer> {
  // Known once listening: the document names the server's own absolute address.
  let ownUrl = "";
  const handle: Handle = (request, caller, connection) =>
    new URL(request.url).pathname === "/openapi.json"
      ? Promise.resolve(openApiResponse(request, ownUrl, demoSecret))
      : sandbox.handle(request, caller, connection);
  const server = createServer((request, response) => {
    bridge(handle, request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { "Content-Type": "text/plain" });
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostInUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;
  ownUrl = `http://${hostInUrl}:${address.port}`;
  return {
    url: ownUrl,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function openApiResponse(request: Request, sandboxUrl: string, demoSecret: string | undefined): Response {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(request.method, ["GET"]);
  return jsonResponse(200, sandboxOpenApiDocument({ sandboxUrl, demoSecret }));
}

type Handle = (request: Request, caller: string, connection: SandboxConnection) => Promise<Response>;

async function bridge(handle: Handle, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const aborter = new AbortController();
  outgoing.on("close", () => {
    if (!outgoing.writableFinished) aborter.abort(new Error("client disconnected"));
  });

  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = incoming.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  // Only the path matters to the sandbox; the host is fixed rather than taken from the client's Host header.
  const request = new Request(new URL(incoming.url ?? "/", "http://sandbox.local"), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : undefined,
    signal: aborter.signal,
    // Required by undici for a streamed request body.
    duplex: "half",
  } as RequestInit & { duplex: "half" });

  const socket = incoming.socket;
  const response = await handle(request, socket.remoteAddress ?? "unknown", {
    reset: () => socket.resetAndDestroy(),
  });
  if (socket.destroyed) return;
  const outgoingHeaders: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") outgoingHeaders[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) outgoingHeaders["set-cookie"] = cookies;
  outgoing.writeHead(response.status, outgoingHeaders);

  if (!response.body || method === "HEAD") {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  // A client that leaves mid-body cancels the stream: a dripping answer stops, and knows when it was left.
  outgoing.once("close", () => {
    if (!outgoing.writableFinished) void reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!outgoing.write(value)) await new Promise((resolve) => outgoing.once("drain", resolve));
    }
  } catch {
    // The body failed mid-way (a fault's cut): the client must see the connection die, not a complete answer.
    outgoing.destroy();
    return;
  }
  outgoing.end();
}

function runningDirectly(): boolean {
  const entry = process.argv[1];
  return entry !== undefined && path.resolve(entry) === fileURLToPath(import.meta.url);
}

if (runningDirectly()) {
  let settings: SandboxSettings;
  try {
    settings = readSandboxSettings();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const port = settings.port;
  const demoSecretConfigured = settings.demoSecret !== undefined;
  const sandbox = createSandbox(sandboxOptionsFrom(settings));
  startSandboxServer({ port, host: "127.0.0.1", sandbox, demoSecret: settings.demoSecret }).then(
    ({ url, close }) => {
      const clients = DEMO_CLIENTS.map((client) => client.clientId).join(", ");
      const secret = demoSecretConfigured ? "the value of SANDBOX_DEMO_SECRET" : `"${DEFAULT_DEMO_SECRET}"`;
      console.log(`Card Services sandbox listening on ${url}`);
      console.log(`  {auth_url} = {base_url} = ${url}`);
      console.log(`  token: POST ${url}/reporting/v1/auth/token`);
      console.log(`  OpenAPI document: ${url}/openapi.json`);
      console.log(`  demo clients: ${clients} (client_secret: ${secret})`);
      for (const signal of ["SIGINT", "SIGTERM"] as const) {
        process.once(signal, () => void close().finally(() => process.exit(0)));
      }
    },
    (error: unknown) => {
      console.error(`Could not start the sandbox on 127.0.0.1:${port}:`, error);
      process.exit(1);
    },
  );
}
