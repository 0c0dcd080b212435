// The console's production server: Next's request handler behind a plain Node HTTP server that we own, for
// two reasons Next's `next start` cannot serve:
// - route handlers must know the real peer (socket) address to decide whether X-Forwarded-* are believed
//   (TRUSTED_PROXIES); Next only fills X-Forwarded-For when the client did not send one. This server
//   overwrites `x-csc-peer-address` with the socket's address on every request (lib/http/peer-address.ts);
//   X-Forwarded-* from any other peer are removed before Next sees them;
// - it listens on HOSTNAME as lib/config resolves it (loopback by default when AUTH_MODE is none).
// Environment files are loaded first, as `next start` does: .env.production.local, .env.local,
// .env.production, .env (already-set variables win).
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import nextEnv from "@next/env";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
nextEnv.loadEnvConfig(root, false, { info: () => {}, error: (...args) => console.error(...args) });
process.env.NODE_ENV = "production";
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

const PEER_ADDRESS_HEADER = "x-csc-peer-address";
const FORWARDED_HEADERS = [
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "forwarded",
];
// Read by lib/http/peer-address.ts: the header is this server's, not the client's.
globalThis[Symbol.for("card-services-console.peer-address-stamped")] = true;

const { default: next } = await import("next");
const port = Number(process.env.PORT || 3000);
const app = next({ dev: false, dir: root, port, hostname: "localhost" });
// Runs instrumentation's register(): the configuration is validated (a bad variable exits naming it).
await app.prepare();
const config = globalThis[Symbol.for("card-services-console.config")];
if (!config) {
  console.error("[serve] the configuration was not loaded by instrumentation; refusing to start.");
  process.exit(1);
}
const handle = app.getRequestHandler();

// Next answers these with a plain-text 500 before proxy.ts runs: refuse them here, in the error shape.
const UNSUPPORTED_METHODS = new Set(["TRACE", "TRACK", "CONNECT"]);
const ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

function refuseMethod(request, response) {
  const body = JSON.stringify({
    error: { code: "method_not_allowed", message: `${request.method} is not supported by this console.` },
  });
  response.writeHead(405, {
    "content-type": "application/json",
    "cache-control": "no-store",
    allow: ALLOWED_METHODS,
    "x-content-type-options": "nosniff",
  });
  response.end(body);
  console.log(
    JSON.stringify({
      level: 30,
      time: new Date().toISOString(),
      method: request.method,
      status: 405,
      msg: "refused before routing",
    }),
  );
}

const server = createServer((request, response) => {
  if (UNSUPPORTED_METHODS.has(request.method ?? "")) return refuseMethod(request, response);
  const peer = request.socket.remoteAddress ?? "";
  request.headers[PEER_ADDRESS_HEADER] = peer;
  // Next builds the request's URL from X-Forwarded-Proto and believes X-Forwarded-For as sent: from a peer
  // that is not a trusted proxy they are dropped here, and Next fills them from the socket instead.
  if (!config.trustedProxies.has(peer)) {
    for (const name of FORWARDED_HEADERS) delete request.headers[name];
  }
  handle(request, response).catch((error) => {
    console.error("[serve] request failed", error);
    if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
    response.end('{"error":{"code":"internal_error","message":"The console server failed unexpectedly."}}');
  });
});
server.listen(config.port, config.hostname, () => {
  const shown = config.hostname.includes(":") ? `[${config.hostname}]` : config.hostname;
  console.log(
    `Card Services Console listening on http://${shown}:${config.port} (${config.publicOrigins[0]})`,
  );
});
server.on("error", (error) => {
  console.error(`[serve] cannot listen on ${config.hostname}:${config.port}:`, error.message);
  process.exit(1);
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  });
}
