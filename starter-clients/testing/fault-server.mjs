#!/usr/bin/env node
// A tiny Card Services API that injects faults on the calls a plan names, for the starter clients' own tests.
// Node 20+, standard library only. It speaks HTTP/1.1 over raw sockets, so a reset is a real reset of the
// socket, a cut body a real short body, a late answer really late. One connection per request.
//
//   node fault-server.mjs            prints {"url":"http://127.0.0.1:PORT"} and serves until stdin closes
//   POST /__faults/plan {"plan":"gift#1:status_500_after_commit,lookup#1:status_404","timeout_ms":800}
//                                    arms a plan: counts and the call log start again (recorded inquiries stay)
//   GET  /__faults/calls             the calls since the plan: [{kind, ordinal, fault, method, status, at, request_id,
//                                    authorization, user_agent, body, path}]
// Calls are counted per kind (token, gift, balance, lookup; anything else is "other") from the plan on.
import { createServer } from "node:net";
import { randomUUID } from "node:crypto";

const DECLINED_CARD = "6006491000000027";
const KINDS = {
  "POST /reporting/v1/auth/token": "token",
  "POST /transaction/v1/gift/balance-inquiry": "gift",
  "POST /transaction/v1/balance-inquiry": "balance",
};
const LOOKUP_PREFIX = "/transaction/v1/transactions/request-id/";

/** The faults this server knows; each names what it does to the call it lands on. */
export const FAULTS = [
  "status_500",
  "status_502",
  "status_503",
  "status_500_after_commit",
  "status_502_after_commit",
  "status_503_after_commit",
  "reset",
  "reset_after_commit",
  "cut_body",
  "html_body",
  "late_headers",
  "drip_body",
  "status_401",
  "status_403",
  "status_404",
  "status_429",
  "status_429_date",
  "status_429_long",
  "status_429_absent",
  "expires_in_1",
  "unknown_fields",
  "unknown_enum",
  "extra_purse",
  "redirect",
];

export function startFaultServer({ host = "127.0.0.1", port = 0 } = {}) {
  const state = {
    plan: new Map(),
    timeoutMs: 1000,
    counts: {},
    calls: [],
    tokens: new Set(),
    recorded: new Map(),
  };
  const reserved = new Set();
  const server = createServer((socket) => {
    socket.on("error", () => {});
    readRequest(socket, (request) =>
      serve(request, socket, state, reserved, url).catch(() => socket.destroy()),
    );
  });
  let url = "";
  return new Promise((resolve) => {
    server.listen(port, host, () => {
      url = `http://${host}:${server.address().port}`;
      resolve({ url, close: () => new Promise((done) => server.close(done)), server });
    });
  });
}

/** Reads one request (head and a Content-Length body) from the socket. */
function readRequest(socket, onRequest) {
  let buffer = Buffer.alloc(0);
  const onData = (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    const end = buffer.indexOf("\r\n\r\n");
    if (end < 0) return;
    const [line, ...fields] = buffer.subarray(0, end).toString("latin1").split("\r\n");
    const headers = {};
    for (const field of fields) {
      const colon = field.indexOf(":");
      headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
    }
    const length = Number(headers["content-length"] ?? 0);
    if (buffer.length < end + 4 + length) return;
    socket.off("data", onData);
    const [method, target] = line.split(" ");
    onRequest({ method, target, headers, body: buffer.subarray(end + 4, end + 4 + length).toString("utf8") });
  };
  socket.on("data", onData);
}

const reasons = {
  200: "OK",
  201: "Created",
  302: "Found",
  401: "Unauthorized",
  403: "Forbidden",
};

function head(status, headers, length) {
  const lines = [`HTTP/1.1 ${status} ${reasons[status] ?? "Status"}`, "Connection: close"];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (length !== undefined) lines.push(`Content-Length: ${length}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}

function reply(socket, status, body, headers = {}) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const type = typeof body === "string" ? "text/html" : "application/json";
  socket.end(head(status, { "Content-Type": type, ...headers }, Buffer.byteLength(text)) + text);
}

/** The same server under another name: another origin, which a client must not send its token or secret to. */
const elsewhere = (url) => url.replace("127.0.0.1", "localhost");
const error = (code) => ({ errors: [{ code, title: code, detail: code }] });
const delay = (ms) => new Promise((done) => setTimeout(done, ms));

async function serve(request, socket, state, reserved, url) {
  const path = request.target.split("?")[0];
  if (path === "/__faults/plan") {
    const { plan = "", timeout_ms: timeoutMs = 1000 } = JSON.parse(request.body || "{}");
    state.plan = new Map(plan ? plan.split(",").map((entry) => entry.split(":")) : []);
    Object.assign(state, { timeoutMs, counts: {}, calls: [] });
    return reply(socket, 200, { ok: true });
  }
  if (path === "/__faults/calls") return reply(socket, 200, state.calls);
  const kind = path.startsWith(LOOKUP_PREFIX) ? "lookup" : (KINDS[`${request.method} ${path}`] ?? "other");
  const ordinal = (state.counts[kind] = (state.counts[kind] ?? 0) + 1);
  const fault = state.plan.get(`${kind}#${ordinal}`) ?? null;
  const call = {
    kind,
    ordinal,
    fault,
    method: request.method,
    status: null,
    at: Date.now(),
    path,
    request_id: request.headers["x-request-id"] ?? null,
    authorization: request.headers.authorization ?? null,
    user_agent: request.headers["user-agent"] ?? null,
    body: request.body,
  };
  state.calls.push(call);
  const answer = (status, body, headers) => {
    call.status = status;
    reply(socket, status, body, headers);
  };
  if (kind === "other") return answer(404, error("not_found"));
  if (kind === "token") return token(request, fault, state, answer, socket, url);
  if (!state.tokens.has((request.headers.authorization ?? "").replace(/^Bearer /, "")))
    return answer(401, error("invalid_token"));
  if (fault && (await early(fault, answer, socket, url))) return;
  const outcome = kind === "gift" ? gift(request, call, state, reserved) : read(kind, path, request, state);
  if (fault) return late(fault, outcome, answer, socket, state, call);
  answer(outcome.status, outcome.body);
}

function token(request, fault, state, answer, socket, url) {
  let body;
  try {
    body = JSON.parse(request.body);
  } catch {
    return answer(400, error("invalid_request"));
  }
  if (body.grant_type !== "client_credentials" || !body.client_id || !body.client_secret)
    return answer(400, error("invalid_request"));
  if (fault === "reset") return socket.resetAndDestroy();
  if (/^status_5/.test(fault ?? "")) return answer(Number(fault.slice(7, 10)), error("server_error"));
  if (fault === "redirect") return answer(302, error("moved"), { Location: `${elsewhere(url)}/elsewhere` });
  const accessToken = `token-${randomUUID()}`;
  state.tokens.add(accessToken);
  const expiresIn = fault === "expires_in_1" ? 1 : 7200;
  const attributes = {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: expiresIn,
    scope: "read:transactions",
  };
  const send = () => answer(200, { data: { type: "oauth-token", attributes }, meta: { version: "1.0.0" } });
  if (fault === "late_headers") return void delay(state.timeoutMs + 1500).then(send);
  send();
}

/** Faults that answer before the inquiry is processed (nothing recorded); true when one did. */
async function early(fault, answer, socket, url) {
  if (fault === "reset") return (socket.resetAndDestroy(), true);
  const status = /^status_(\d{3})$/.exec(fault)?.[1];
  if (status && status !== "429" && status !== "404")
    return (answer(Number(status), error(`status_${status}`)), true);
  const retryAfter = {
    status_429: "1",
    status_429_date: new Date(Date.now() + 2000).toUTCString(),
    status_429_long: "3600",
  };
  if (fault.startsWith("status_429")) {
    const headers = fault in retryAfter ? { "Retry-After": retryAfter[fault] } : {};
    return (answer(429, error("rate_limited"), headers), true);
  }
  if (fault === "redirect") {
    return (answer(302, error("moved"), { Location: `${elsewhere(url)}/elsewhere` }), true);
  }
  return false;
}

/** Faults that land after the call was processed (a Gift Balance Inquiry is recorded by then). */
async function late(fault, outcome, answer, socket, state, call) {
  call.status = outcome.status;
  const text = JSON.stringify(outcome.body);
  if (fault === "reset_after_commit") return socket.resetAndDestroy();
  if (/^status_5\d\d_after_commit$/.test(fault))
    return answer(Number(fault.slice(7, 10)), error("server_error"));
  if (fault === "status_404") return answer(404, error("transaction_not_found"));
  if (fault === "cut_body") {
    const headers = head(outcome.status, { "Content-Type": "application/json" }, Buffer.byteLength(text));
    return socket.end(headers + text.slice(0, Math.floor(text.length / 2)));
  }
  if (fault === "html_body") return answer(outcome.status, "<html><body><h1>Service busy</h1></body></html>");
  if (fault === "late_headers")
    return void delay(state.timeoutMs + 1500).then(() => answer(outcome.status, outcome.body));
  if (fault === "drip_body") {
    socket.write(head(outcome.status, { "Content-Type": "application/json" }, Buffer.byteLength(text)));
    for (const character of text) {
      if (socket.destroyed) return;
      socket.write(character);
      await delay(Math.ceil((state.timeoutMs * 3) / text.length));
    }
    return socket.end();
  }
  const data = outcome.body?.data;
  if (data && fault === "unknown_fields")
    Object.assign(data, { loyalty_tier: "gold", hints: { next: [1, 2] } });
  if (data && fault === "unknown_enum" && "response_status" in data)
    Object.assign(data, { response_status: "approved_partially", response_code: "approved_by_stand_in" });
  if (data?.balances && fault === "extra_purse") data.balances.cashback = "1.25";
  answer(outcome.status, outcome.body);
}

function gift(request, call, state, reserved) {
  const data = JSON.parse(request.body || "{}").data ?? {};
  const id = call.request_id;
  if (!id) return { status: 400, body: error("missing_request_id") };
  if (reserved.has(id)) return { status: 409, body: error("duplicate_request_id") };
  reserved.add(id);
  const declined = data.card_number === DECLINED_CARD;
  const transaction = {
    transaction_id: randomUUID(),
    external_id: randomUUID(),
    entry_mode: data.entry_mode,
    card_number: data.card_number,
    pin_mode: data.pin_mode,
    transaction_type: "gift_balance_inquiry",
    response_status: declined ? "declined" : "approved",
    response_code: declined ? "card_inactive" : "transaction_approved",
    response_message: declined ? "Declined" : "Approved",
    balance: declined ? "0.00" : "25.00",
  };
  state.recorded.set(id, transaction);
  return { status: 201, body: { data: transaction } };
}

function read(kind, path, request, state) {
  if (kind === "lookup") {
    const found = state.recorded.get(decodeURIComponent(path.slice(LOOKUP_PREFIX.length)));
    return found
      ? { status: 200, body: { data: found } }
      : { status: 404, body: error("transaction_not_found") };
  }
  const card = JSON.parse(request.body || "{}").data?.card_number;
  const balances = { gift: "25.00", gift_rewards: "0.00", loyalty: "0.00", loyalty_rewards: "0.00" };
  Object.assign(balances, { discount: "0.00", promotional: "0.00", punch: "0.00", punch_rewards: "0.00" });
  return {
    status: 200,
    body: { data: { card_number: card, system_time: new Date().toISOString(), balances } },
  };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  const { url, close } = await startFaultServer();
  process.stdout.write(`${JSON.stringify({ url })}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => void close().then(() => process.exit(0)));
}
