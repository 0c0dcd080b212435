/**
 * Driving an integration certification (docs/design.md §11) through the console's routes, as a tester or a CI job
 * does: start one, arm each step before the application's calls, finish, download the bundle. Each call's status
 * is asserted here, so a test reads as the steps it takes.
 */
import { expect } from "vitest";
import type {
  ClientCertificationView,
  ClientStepId,
  StartedClientCertification,
} from "@/lib/shared/client-certification-contract";
import { ConsoleClient } from "./http-client";

export class CertificationDriver {
  readonly tester: ConsoleClient;

  constructor(consoleUrl: string, tester = new ConsoleClient(consoleUrl)) {
    this.tester = tester;
  }

  /** Starts a certification on the embedded sandbox: 201, waiting for the application's first call. */
  async start(): Promise<StartedClientCertification> {
    const started = await this.tester.json<StartedClientCertification>("POST", "/api/client-certifications", {
      body: { environment: "embedded" },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    return started.body;
  }

  async arm(id: string, step: ClientStepId): Promise<void> {
    const armed = await this.tester.json("POST", `/api/client-certifications/${id}/steps/${step}`, {
      body: {},
    });
    expect(armed.status, `arming ${step}`).toBe(200);
  }

  async finish(id: string): Promise<ClientCertificationView> {
    const finished = await this.tester.json<ClientCertificationView>(
      "POST",
      `/api/client-certifications/${id}/finish`,
      { body: {} },
    );
    expect(finished.status).toBe(200);
    return finished.body;
  }

  /** The signed evidence bundle of a finished certification, as its download serves it. */
  async evidence(id: string): Promise<{ zip: Uint8Array; response: Response }> {
    const response = await this.tester.send("GET", `/api/client-certifications/${id}/evidence`);
    expect(response.status).toBe(200);
    return { zip: new Uint8Array(await response.arrayBuffer()), response };
  }
}

/** Every check of a finished certification passed: the failing ones, named with what was seen, are none. */
export function expectAllPass(view: ClientCertificationView): void {
  const failing = view.checks.filter((check) => check.verdict !== "pass");
  expect(failing.map((check) => `${check.id}: ${check.verdict}: ${check.observed}`)).toEqual([]);
}
