/**
 * Requests a browser never sends, over raw sockets to scripts/serve.mjs on the production build: writes to a
 * static file, no Host (HTTP/1.0), an absolute-form target, and a body the client abandons halfway. Each is
 * answered in the one error shape (or not at all for the abandoned one), and the server keeps serving.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsole, type ConsoleServer } from "../../support/console-server";

let server: ConsoleServer;

beforeAll(async () => {
  server = await startConsole();
});
afterAll(async () => server?.stop());

interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/** Sends `text` as it is and reads the answer until the server closes the connection. */
function exchange(text: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => {
      const split = received.indexOf("\r\n\r\n");
      const head = split < 0 ? received : received.slice(0, split);
      const rest = split < 0 ? "" : received.slice(split + 4);
      const body = /transfer-encoding: chunked/i.test(head) ? dechunk(rest) : rest;
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, body });
    });
    socket.write(text);
  });
}

/** A chunked body's data (each chunk: its size in hex, CRLF, the data, CRLF; a 0-size chunk ends it). */
function dechunk(text: string): string {
  let body = "";
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf("\r\n", at);
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (lineEnd < 0 || !(size > 0)) return body;
    body += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

const host = () => `localhost:${server.port}`;

function errorCode(answer: RawAnswer): string | undefined {
  try {
    const body = JSON.parse(answer.body) as { error?: { code?: string } };
    return body.error?.code;
  } catch {
    return undefined;
  }
}

describe("writes to a static file", () => {
  it.each(["POST", "PUT", "PATCH", "DELETE"])(
    "%s /robots.txt and /favicon.ico: 405 in the error shape",
    async (method) => {
      for (const path of ["/robots.txt", "/favicon.ico"]) {
        const answer = await exchange(
          `${method} ${path} HTTP/1.1\r\nHost: ${host()}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
        );
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(errorCode(answer)).toBe("method_not_allowed");
        expect(answer.head.toLowerCase()).toContain("allow: get, head");
      }
    },
  );

  it("GET /robots.txt is still served", async () => {
    const answer = await exchange(`GET /robots.txt HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(200);
  });
});

describe("request targets and Host", () => {
  it("HTTP/1.0 without Host: 400 in the error shape", async () => {
    const answer = await exchange("GET / HTTP/1.0\r\n\r\n");
    expect(answer.status).toBe(400);
    expect(errorCode(answer)).toBe("bad_request");
  });

  it("an absolute-form target naming another host is refused, not redirected there", async () => {
    const answer = await exchange(
      `GET http://evil.example/ HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(400);
    expect(errorCode(answer)).toBe("bad_request");
    expect(answer.head.toLowerCase()).not.toContain("evil.example");
  });

  it("an absolute-form target naming this console is refused too (browsers never send one)", async () => {
    const answer = await exchange(
      `GET http://${host()}/api/health HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(400);
  });
});

describe("a request body the client abandons", () => {
  it("is the request's end: no uncaughtException, no error-level line, the server keeps serving", async () => {
    const before = server.logs().length;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(server.port, "127.0.0.1", () => {
        socket.write(
          `POST /api/session/credentials HTTP/1.1\r\nHost: ${host()}\r\nOrigin: http://${host()}\r\n` +
            `Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{"client_id":"demo-cl`,
        );
        // Destroyed once the server has the headers and half the body.
        setImmediate(() => setTimeout(() => socket.destroy(), 100));
      });
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
    // The server still answers, and has had the time to log whatever the abandoned request caused.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const health = await fetch(`${server.url}/api/health`);
      expect(health.status).toBe(200);
    }
    const after = server.logs().slice(before);
    expect(after).not.toMatch(/uncaughtException/i);
    expect(after).not.toMatch(/"level":\s*50/);
    expect(after).not.toMatch(/Error: aborted/);
  });
});
