/**
 * A small round-robin load balancer on loopback for multi-instance tests: each call goes to the next upstream in
 * turn; a call whose upstream refuses the connection (stopped, draining) is retried on the next one, as Caddy's
 * `lb_try_duration` does in compose.yaml. It keeps the client's Host (the consoles' PUBLIC_URL is the balancer's
 * address) and adds X-Forwarded-For/-Proto/-Host (the consoles trust it through TRUSTED_PROXIES).
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobin {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** Calls answered per upstream origin. */
  answered: Map<string, number>;
  close: () => Promise<void>;
}

async function readBody(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function forward(upstream: URL, incoming: IncomingMessage, body: Buffer, outgoing: ServerResponse) {
  return new Promise<"answered" | "refused">((resolve) => {
    const headers = { ...incoming.headers };
    const peer = incoming.socket.remoteAddress ?? "";
    headers["x-forwarded-for"] = headers["x-forwarded-for"] ? `${headers["x-forwarded-for"]}, ${peer}` : peer;
    headers["x-forwarded-proto"] = "http";
    headers["x-forwarded-host"] = incoming.headers.host ?? "";
    const call = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        answer.on("end", () => resolve("answered"));
        answer.on("error", () => resolve("answered"));
      },
    );
    call.on("error", (error: NodeJS.ErrnoException) => {
      if (!outgoing.headersSent && (error.code === "ECONNREFUSED" || error.code === "ECONNRESET")) {
        resolve("refused");
      } else {
        outgoing.destroy();
        resolve("answered");
      }
    });
    call.end(body);
  });
}

export async function startRoundRobin(upstreams: string[]): Promise<RoundRobin> {
  const targets = upstreams.map((upstream) => new URL(upstream));
  const answered = new Map(upstreams.map((upstream) => [new URL(upstream).origin, 0]));
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      const body = await readBody(incoming);
      for (let attempt = 0; attempt < targets.length; attempt++) {
        const target = targets[next++ % targets.length]!;
        if ((await forward(target, incoming, body, outgoing)) === "answered") {
          answered.set(target.origin, (answered.get(target.origin) ?? 0) + 1);
          return;
        }
      }
      outgoing.writeHead(502, { "content-type": "application/json" });
      outgoing.end('{"error":{"code":"no_upstream","message":"No instance answered."}}');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
