// The console's production server: Next's request handler behind a plain Node HTTP server that we own, for
// reasons Next's `next start` (and the standalone output's generated server.js) cannot serve:
// - route handlers must know the real peer (socket) address to decide whether X-Forwarded-* are believed
//   (TRUSTED_PROXIES); Next only fills X-Forwarded-For when the client did not send one. This server
//   overwrites `x-csc-peer-address` with the socket's address on every request (lib/server/http/peer-address.ts);
//   X-Forwarded-* from any other peer are removed before Next sees them;
// - it listens on HOSTNAME as lib/server/config resolves it (loopback by default when AUTH_MODE is none);
// - on SIGTERM it drains: stops accepting, lets in-flight calls finish (bounded), closes the database, exits 0.
// It runs from the repository (scripts/serve.mjs, `npm start`) and, copied by scripts/standalone.mjs, as the
// standalone output's server (`node .next/standalone/server.js`, the container image). Both start Next the
// way the generated standalone server.js does: with the configuration the build recorded
// (<distDir>/required-server-files.json), so next.config.js is not needed at runtime.
// Environment files are loaded first, as `next start` does: .env.production.local, .env.local,
// .env.production, .env (already-set variables win).
import { AsyncLocalStorage } from "node:async_hooks";
import { EventEmitter } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import nextEnv from "@next/env";

const here = path.dirname(fileURLToPath(import.meta.url));
// scripts/serve.mjs → the repository; <distDir>/standalone/serve.mjs → the standalone folder.
const root = path.basename(here) === "scripts" ? path.resolve(here, "..") : here;
// Relative paths (DATA_DIR, db/migrations) resolve against the application folder, wherever we were started.
process.chdir(root);
nextEnv.loadEnvConfig(root, false, { info: () => {}, error: (...args) => console.error(...args) });
process.env.NODE_ENV = "production";
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

const distDir = process.env.NEXT_DIST_DIR || ".next";
let builtConfig;
try {
  builtConfig = JSON.parse(
    readFileSync(path.join(root, distDir, "required-server-files.json"), "utf8"),
  ).config;
} catch {
  console.error(`[serve] no production build in ${path.join(root, distDir)}: run \`npm run build\` first.`);
  process.exit(1);
}
// What the generated standalone server.js does: Next then uses this configuration instead of loading
// next.config.js (absent from the standalone folder), and does not warn that `next start` is unsupported.
process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(builtConfig);

const PEER_ADDRESS_HEADER = "x-csc-peer-address";
const FORWARDED_HEADERS = [
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "forwarded",
];
// Read by lib/server/util/peer-address.ts: the header is this server's, not the client's.
globalThis[Symbol.for("card-services-console.peer-address-stamped")] = true;
// The socket under each request, for the embedded sandbox's fault plans (lib/server/util/connection.ts): a reset
// fault resets the connection itself, which a route handler's Response cannot express.
const connections = new AsyncLocalStorage();
globalThis[Symbol.for("card-services-console.connections")] = connections;

const { default: next } = await import("next");
const port = Number(process.env.PORT || 3000);
// Next adds an `upgrade` listener to the server of its first request (for websocket proxying, which the console
// does not use); with one, Node hands it every request that asks to upgrade, and Next closes those unanswered:
// `Upgrade: h2c` (curl --http2, Java's default HttpClient over http://) got an empty reply. Given a stand-in
// server instead, Next listens there, and Node answers upgrade requests as plain HTTP/1.1 requests, body and all.
const app = next({ dev: false, dir: root, port, hostname: "localhost", httpServer: new EventEmitter() });
// Runs instrumentation's register(): the configuration is validated (a bad variable exits naming it).
await app.prepare();
// The composition root instrumentation built (lib/server/root/process.ts keeps it in this one global slot).
const consoleRoot = globalThis[Symbol.for("card-services-console.root")];
const config = consoleRoot?.config;
if (!config) {
  console.error("[serve] the configuration was not loaded by instrumentation; refusing to start.");
  process.exit(1);
}
const handle = app.getRequestHandler();

// Next answers these with a plain-text 500 before proxy.ts runs: refuse them here, in the error shape.
const UNSUPPORTED_METHODS = new Set(["TRACE", "TRACK", "CONNECT"]);
const ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
// Next's route handlers answer any other method (PROPFIND, MKCOL, …) with an empty 400, whatever the route
// exports: under /api it is refused here instead (proxy.ts answers it under /sandbox, in the sandbox's shape).
const ROUTE_METHODS = new Set(ALLOWED_METHODS.split(", "));
// Static files (public/ and the build's assets) are read-only: Next answers a write to one with a plain-text
// 500, so it is refused here with a 405.
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const STATIC_ALLOW = "GET, HEAD";
const publicFiles = listPublicFiles(path.join(root, "public"));

/** `/robots.txt`, `/favicon.ico`, …: every file under public/ as the path Next serves it at. */
function listPublicFiles(folder, prefix = "") {
  let names = [];
  try {
    names = readdirSync(folder, { withFileTypes: true });
  } catch {
    return new Set();
  }
  const files = new Set();
  for (const entry of names) {
    const served = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      for (const file of listPublicFiles(path.join(folder, entry.name), served)) files.add(file);
    } else files.add(served);
  }
  return files;
}

function pathOf(url = "") {
  return url.split("?", 1)[0].slice(0, 200);
}

// Next's proxy (middleware) step replays the request body and, when the client abandoned it, logs that
// stream's error as a failure of the request (console.error, then a 500 nobody receives). The error objects of
// abandoned bodies are kept here and those log calls dropped: the abandonment is logged once, at info, above.
const abortedBodies = new WeakSet();
const consoleError = console.error.bind(console);
console.error = (...args) => {
  if (args.length === 1 && abortedBodies.has(args[0])) return;
  consoleError(...args);
};

/** Whether a %-escape of the path does not decode; the common path without one costs no decode. */
function hasMalformedEncoding(url) {
  const pathname = url.split("?", 1)[0];
  if (!pathname.includes("%")) return false;
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/**
 * The path as Next routes it: dot segments (`/./api`, `/x/../api`, `%2e`) removed by the URL parser. Classified on
 * the raw target, `PROPFIND /./api/me` was not an API path here and got Next's empty 400.
 */
function routedPath(url) {
  const pathname = url.split("?", 1)[0];
  // `%2e` is a dot to the URL parser too.
  if (!pathname.includes(".") && !pathname.includes("%")) return pathname;
  try {
    return new URL(pathname, "http://localhost").pathname;
  } catch {
    return pathname;
  }
}

function isApiPath(url) {
  const pathname = routedPath(url);
  return pathname === "/api" || pathname.startsWith("/api/");
}

function isStaticPath(url) {
  const pathname = routedPath(url);
  return pathname.startsWith("/_next/static/") || publicFiles.has(pathname);
}

// LOG_FORMAT as the console's logger reads it (lib/server/util/log-format.ts): unset, readable lines at a terminal
// and JSON anywhere else. pino-pretty is loaded only for a terminal.
const logFormat = process.env.LOG_FORMAT?.trim().toLowerCase() || (process.stdout.isTTY ? "pretty" : "json");
const prettyLine =
  logFormat === "pretty"
    ? (await import("pino-pretty")).prettyFactory({
        colorize: process.stdout.hasColors?.() === true,
        translateTime: "SYS:HH:MM:ss.l",
        singleLine: true,
        ignore: "pid,hostname,service",
      })
    : undefined;

/** One line at info level, like the console's pino logs. */
function log(fields) {
  const line = JSON.stringify({ level: 30, time: new Date().toISOString(), ...fields });
  if (prettyLine) process.stdout.write(prettyLine(line));
  else console.log(line);
}

/** Answers before routing, in the console's one error shape, and logs the refusal. */
function refuse(request, response, status, code, message, headers = {}) {
  response.writeHead(status, {
    "content-type": "application/json",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...headers,
  });
  response.end(JSON.stringify({ error: { code, message } }));
  log({ method: request.method, status, code, msg: "refused before routing" });
}

/**
 * What this server answers itself, before Next sees the request; false when Next should handle it.
 * A target that is not a path (absolute-form `http://evil.example/`, `*`) would make Next redirect to the host it
 * names before any Host check, and a request without Host (HTTP/1.0) has no name to check: browsers send
 * neither, so both are refused.
 */
function refusedBeforeRouting(request, response) {
  const method = request.method ?? "";
  if (UNSUPPORTED_METHODS.has(method)) {
    refuse(request, response, 405, "method_not_allowed", `${method} is not supported by this console.`, {
      allow: ALLOWED_METHODS,
    });
    return true;
  }
  const target = request.url ?? "";
  if (!target.startsWith("/") || target.startsWith("//")) {
    refuse(request, response, 400, "bad_request", "The request target must be a path (e.g. /api/health).");
    return true;
  }
  if (!request.headers.host) {
    refuse(request, response, 400, "bad_request", "The request has no Host header.");
    return true;
  }
  // Next answers a path whose %-escapes do not decode with a plain-text 500 (proxy.ts no longer runs for /api).
  if (hasMalformedEncoding(target)) {
    refuse(request, response, 400, "bad_request", "The request path has malformed %-encoding.");
    return true;
  }
  if (!ROUTE_METHODS.has(method) && isApiPath(target)) {
    refuse(request, response, 405, "method_not_allowed", `${method} is not a method of the console API.`, {
      allow: ALLOWED_METHODS,
    });
    return true;
  }
  if (!READ_METHODS.has(method) && isStaticPath(target)) {
    refuse(request, response, 405, "method_not_allowed", `${method} is not allowed on a static file.`, {
      allow: STATIC_ALLOW,
    });
    return true;
  }
  return false;
}

// Calls still being answered; a draining server waits for them (bounded by SHUTDOWN_GRACE_MS).
let inFlight = 0;
let draining = false;

const server = createServer((request, response) => {
  inFlight += 1;
  response.once("close", () => {
    inFlight -= 1;
    // While draining, a keep-alive connection whose call just ended must not wait for another one.
    if (draining) {
      server.closeIdleConnections();
      if (inFlight === 0) allCallsFinished();
    }
  });
  if (draining) response.setHeader("connection", "close");
  // A client that goes away mid-body makes the request emit "aborted": that is the request's end (the route
  // then answers 400 request_aborted to nobody), not an uncaught exception or a failure of the console.
  request.on("error", (error) => {
    if (error?.code === "ECONNRESET" || error?.message === "aborted") {
      if (error && typeof error === "object") abortedBodies.add(error);
      log({ method: request.method, path: pathOf(request.url), msg: "request aborted by the client" });
    } else console.error("[serve] request stream failed", error);
  });
  if (refusedBeforeRouting(request, response)) return;
  const peer = request.socket.remoteAddress ?? "";
  request.headers[PEER_ADDRESS_HEADER] = peer;
  // Next builds the request's URL from X-Forwarded-Proto and believes X-Forwarded-For as sent: from a peer
  // that is not a trusted proxy they are dropped here, and Next fills them from the socket instead.
  if (!config.trustedProxies.has(peer)) {
    for (const name of FORWARDED_HEADERS) delete request.headers[name];
  }
  const socket = request.socket;
  const connection = { reset: () => socket.resetAndDestroy() };
  connections
    .run(connection, () => handle(request, response))
    .catch((error) => {
      console.error("[serve] request failed", error);
      if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
      response.end('{"error":{"code":"internal_error","message":"The console server failed unexpectedly."}}');
    });
});
// Node answers a request it cannot parse (a request line or headers over its 16 KB limit, malformed HTTP) with an
// empty 431 or 400 and closes the connection; the same statuses are sent here with a body in the error shape.
server.on("clientError", (error, socket) => {
  if (error?.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error?.code === "HPE_HEADER_OVERFLOW";
  const status = tooLarge ? 431 : 400;
  const body = JSON.stringify({
    error: tooLarge
      ? {
          code: "bad_request",
          message: "The request line and headers are larger than this console accepts (16 KB).",
        }
      : { code: "bad_request", message: "The request is not well-formed HTTP." },
  });
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? "Request Header Fields Too Large" : "Bad Request"}\r\n` +
      "Content-Type: application/json\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  log({ status, code: error?.code, msg: "refused before routing: unparsable request" });
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

// Below the 10 s a container runtime waits between SIGTERM and SIGKILL by default.
const SHUTDOWN_GRACE_MS =
  Number(process.env.SHUTDOWN_GRACE_MS) > 0 ? Number(process.env.SHUTDOWN_GRACE_MS) : 8000;
let allCallsFinished = () => {};

async function drain(signal) {
  if (draining) return;
  draining = true;
  log({
    signal,
    in_flight: inFlight,
    grace_ms: SHUTDOWN_GRACE_MS,
    msg: "shutting down: no new connections; finishing the calls in flight",
  });
  // Stops listening at once (new connections are refused) and closes idle keep-alive connections.
  server.close();
  server.closeIdleConnections();
  const finished = await new Promise((resolve) => {
    if (inFlight === 0) return resolve(true);
    allCallsFinished = () => resolve(true);
    setTimeout(() => resolve(false), SHUTDOWN_GRACE_MS).unref();
  });
  if (!finished) {
    console.error(`[serve] ${inFlight} call(s) still running after ${SHUTDOWN_GRACE_MS} ms: closing them.`);
    server.closeAllConnections();
  }
  // The root closes what it opened: the sweep stops, the last audit rows and checkpoint are written, then PGlite
  // flushes and unlocks DATA_DIR or the PostgreSQL pool ends its connections.
  if (typeof consoleRoot?.close === "function") {
    try {
      await consoleRoot.close();
      log({ msg: "database closed" });
    } catch (error) {
      console.error("[serve] closing the database failed:", error);
    }
  }
  process.exit(0);
}

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void drain(signal));
