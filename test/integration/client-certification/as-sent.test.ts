/**
 * What the tester sees of the application is what it sent (docs/design.md §11): a raw HTTP client, through a proxy
 * of the test that adds the usual forwarding headers, sends bodies with unusual spacing; the live log and the
 * evidence bundle show exactly the application's request headers (none the proxy or the console's own server
 * adds, no response header) and each body byte for byte, with the secret redacted and the card masked.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import { connect } from "node:net";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { maskCardNumber } from "@/lib/shared/masking";
import {
  ACTIVE_CARD,
  type ClientCallRecord,
  type ClientCertificationView,
  type StartedClientCertification,
} from "@/lib/shared/client-certification-contract";
import { freePort, sharedConsole, type ConsoleServer } from "../../support/console-server";
import { ConsoleClient } from "@/test/support/http-client";

let server: ConsoleServer;
let proxy: Server;
let proxyPort = 0;

/** What the test proxy adds to every request it forwards (the proxy is trusted, so the console keeps them). */
const proxyHeaders = (host: string) => ({
  "x-forwarded-for": "203.0.113.7",
  "x-forwarded-host": host,
  "x-forwarded-proto": "http",
  forwarded: `for=203.0.113.7;host="${host}";proto=http`,
  "x-real-ip": "203.0.113.7",
  via: "1.1 test-proxy",
});

function startProxy(target: URL): Promise<Server> {
  const forwarding = createServer((incoming, outgoing) => {
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, ...proxyHeaders(target.host) },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on("error", (error) => {
      console.error("proxy", error);
      outgoing.destroy();
    });
    incoming.pipe(upstream);
  });
  return new Promise((resolve) => forwarding.listen(proxyPort, "127.0.0.1", () => resolve(forwarding)));
}

/** One request written byte for byte on a socket: only these headers, this body; the answer's body back. */
function rawSend(path: string, headers: [string, string][], body: string): Promise<string> {
  const bytes = Buffer.from(body, "utf8");
  const head = [
    `POST ${path} HTTP/1.1`,
    ...headers.map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${bytes.length}`,
    "",
    "",
  ].join("\r\n");
  return new Promise((resolve, reject) => {
    const socket = connect(proxyPort, "127.0.0.1", () =>
      socket.write(Buffer.concat([Buffer.from(head), bytes])),
    );
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

beforeAll(async () => {
  proxyPort = await freePort();
  // The run's console behind a trusted proxy: each certification is a client of its own.
  server = await sharedConsole("trusted-proxy");
  proxy = await startProxy(new URL(server.url));
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
});

describe("the live log and the evidence show what the application sent", () => {
  test("headers as sent (no proxy or console header), bodies byte for byte, secret redacted", async () => {
    const tester = new ConsoleClient(server.url);
    const started = (
      await tester.json<StartedClientCertification>("POST", "/api/client-certifications", {
        body: { environment: "embedded" },
      })
    ).body;
    const host = new URL(server.url).host;
    const base = (headers: [string, string][]): [string, string][] => [
      ["Host", host],
      ["Connection", "close"],
      ...headers,
    ];
    const tokenBody = `{ "client_id" :  "${started.client_id}",\n\t"client_secret":"${started.client_secret}" , "grant_type" : "client_credentials"   }`;
    const tokenAnswer = await rawSend(
      "/sandbox/reporting/v1/auth/token",
      base([["Content-Type", "application/json"]]),
      tokenBody,
    );
    const token = /"access_token"\s*:\s*"([^"]+)"/.exec(tokenAnswer)?.[1];
    if (!token) throw new Error(tokenAnswer);
    const inquiryBody = `{"data" : {\n  "entry_mode":"keyed",  "card_number" : "${ACTIVE_CARD}",\r\n "pin_mode":"none","originator":{ "location_id" :"store-1"}}}  `;
    const inquiryHeaders = base([
      ["Content-Type", "application/json"],
      ["Authorization", `Bearer ${token}`],
      ["X-Request-Id", "as-sent-1"],
      ["X-Application", "raw client"],
    ]);
    const inquiryAnswer = await rawSend(
      "/sandbox/transaction/v1/balance-inquiry",
      inquiryHeaders,
      inquiryBody,
    );
    expect(inquiryAnswer).toMatch(/^HTTP\/1\.1 200/);

    const read = await tester.json<ClientCertificationView>(
      "GET",
      `/api/client-certifications/${started.id}`,
    );
    const [tokenCall, inquiryCall] = read.body.exchanges;
    expectAsSent(tokenCall!, ["host", "connection", "content-type", "content-length"]);
    expect(tokenCall!.request.body).toBe(tokenBody.replace(started.client_secret, "[REDACTED]"));
    expectAsSent(inquiryCall!, inquiryHeaders.map(([name]) => name.toLowerCase()).concat("content-length"));
    expect(inquiryCall!.request.headers["x-application"]).toBe("raw client");
    expect(inquiryCall!.request.headers.authorization).toBe("Bearer [REDACTED]");
    const maskedInquiry = inquiryBody.replace(ACTIVE_CARD, maskCardNumber(ACTIVE_CARD));
    expect(inquiryCall!.request.body).toBe(maskedInquiry);

    expect(
      (await tester.json("POST", `/api/client-certifications/${started.id}/finish`, { body: {} })).status,
    ).toBe(200);
    const evidence = await tester.send("GET", `/api/client-certifications/${started.id}/evidence`);
    const files = unzipSync(new Uint8Array(await evidence.arrayBuffer()));
    const exchange = (id: string) => {
      const name = Object.keys(files).find(
        (file) => file.startsWith("exchanges/") && file.endsWith(`${id}.json`),
      );
      return JSON.parse(strFromU8(files[name!]!)) as ClientCallRecord;
    };
    expect(exchange(inquiryCall!.id).request.body).toBe(maskedInquiry);
    expect(Object.keys(exchange(inquiryCall!.id).request.headers).sort()).toEqual(
      Object.keys(inquiryCall!.request.headers).sort(),
    );
    expect(exchange(tokenCall!.id).request.body).toBe(tokenBody.replace(started.client_secret, "[REDACTED]"));
    for (const [name, bytes] of Object.entries(files))
      expect(strFromU8(bytes), name).not.toContain(started.client_secret);
  });
});

/** The call's request headers are exactly `sent` (lower-case names), nothing any hop or the answer added. */
function expectAsSent(call: ClientCallRecord, sent: string[]): void {
  const recorded = Object.keys(call.request.headers).sort();
  expect(recorded).toEqual([...new Set(sent)].sort());
}
