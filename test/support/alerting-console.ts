/**
 * A console whose `sandbox` environment is an upstream the test breaks and mends (127.0.0.1), alerting to a
 * receiver in the test (docs/operations/alerts.md): while `setBroken(true)`, Balance Inquiry answers 500 and a
 * monitor of BI-01 fails; every alert the console posts arrives in `alerts`, as the Standard Webhooks reference
 * verifier takes it (`verifyAlert`).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer } from "@/lib/sandbox/server";
import { startConsole, type ConsoleServer } from "./console-server";

export interface ReceivedAlert {
  body: string;
  headers: Record<string, string>;
}

/** Reads a request's body and headers (as the reference verifier takes them). */
export function receiveAlert(request: IncomingMessage): Promise<ReceivedAlert> {
  return new Promise((resolve) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () =>
      resolve({
        body,
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
        ),
      }),
    );
  });
}

/** The alert as the Standard Webhooks reference verifier reads it; throws when it does not verify. */
export function verifyAlert(secret: string, alert: ReceivedAlert | undefined): Record<string, unknown> {
  return new Webhook(secret).verify(alert?.body ?? "", alert?.headers ?? {}) as Record<string, unknown>;
}

export interface AlertingConsole {
  server: ConsoleServer;
  /** Every alert received, in order. */
  alerts: ReceivedAlert[];
  /** The receiver's port (the console shows where alerts go by host and port). */
  receiverPort: number;
  setBroken(broken: boolean): void;
  stop(): Promise<void>;
}

export async function startAlertingConsole(options: {
  /** The upstream's demo client secret, which the console holds. */
  clientSecret: string;
  webhookSecret: string;
  /** The path of the webhook URL (a token in it must never be shown). */
  webhookPath: string;
}): Promise<AlertingConsole> {
  let broken = false;
  const sandbox = createSandbox({ demoSecret: options.clientSecret });
  const upstream = await startSandboxServer({
    port: 0,
    sandbox: {
      ...sandbox,
      handle: (request, caller) =>
        broken && new URL(request.url).pathname.endsWith("/transaction/v1/balance-inquiry")
          ? Promise.resolve(new Response("{}", { status: 500 }))
          : sandbox.handle(request, caller),
    },
  });
  const alerts: ReceivedAlert[] = [];
  const receiver = createServer((request, response) => {
    void receiveAlert(request).then((alert) => {
      alerts.push(alert);
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverPort = (receiver.address() as AddressInfo).port;
  const work = mkdtempSync(path.join(os.tmpdir(), "alerting-console-"));
  const profile = path.join(work, "profile.json");
  writeFileSync(profile, JSON.stringify({ cards: { active: "6006491000000001" }, transaction_lookup: true }));
  const server = await startConsole({
    CARD_API_AUTH_URL: upstream.url,
    CARD_API_SANDBOX_URL: upstream.url,
    CARD_API_CLIENT_ID: "demo-client",
    CARD_API_CLIENT_SECRET: options.clientSecret,
    CERTIFICATION_PROFILE: profile,
    ALERT_WEBHOOK_URL: `http://127.0.0.1:${receiverPort}${options.webhookPath}`,
    ALERT_WEBHOOK_SECRET: options.webhookSecret,
  });
  return {
    server,
    alerts,
    receiverPort,
    setBroken: (value) => {
      broken = value;
    },
    stop: async () => {
      await server.stop();
      await upstream.close();
      await new Promise((resolve) => receiver.close(resolve));
      rmSync(work, { recursive: true, force: true });
    },
  };
}
