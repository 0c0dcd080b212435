/**
 * What `npm run certify-client` does over HTTP and with processes: the console's fault-certification routes
 * (docs/design.md §14), and the application's command run once per plan with the certification's credentials in
 * its environment, in a fresh empty directory, within a time limit.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type {
  ClientCertificationView,
  PlanResult,
  StartedClientCertification,
} from "@/lib/shared/client-certification-contract";

export class ConsoleApiError extends Error {}

/** The console's routes, as a signed-in user (the session cookie given) or on a console without sign-in. */
export class FaultConsole {
  constructor(
    readonly url: string,
    private readonly cookie: string | undefined,
  ) {}

  private async call<T>(method: string, route: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      headers.origin = this.url;
    }
    let response: Response;
    try {
      response = await fetch(`${this.url}${route}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new ConsoleApiError(`The console at ${this.url} did not answer (${(error as Error).message}).`);
    }
    const text = await response.text();
    if (!response.ok)
      throw new ConsoleApiError(`${method} ${route} answered ${response.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  start(timeoutMs: number): Promise<StartedClientCertification> {
    return this.call("POST", "/api/client-certifications", {
      environment: "embedded",
      mode: "faults",
      timeout_ms: timeoutMs,
    });
  }

  arm(id: string, code: string, reproducerOf?: string): Promise<{ plan_id: string }> {
    return this.call("POST", `/api/client-certifications/${id}/plans`, {
      code,
      ...(reproducerOf === undefined ? {} : { reproducer_of: reproducerOf }),
    });
  }

  end(id: string, planId: string, exitCode: number | null): Promise<PlanResult> {
    return this.call("POST", `/api/client-certifications/${id}/plans/${planId}/end`, {
      ...(exitCode === null ? {} : { exit_code: exitCode }),
    });
  }

  finish(id: string): Promise<ClientCertificationView> {
    return this.call("POST", `/api/client-certifications/${id}/finish`, {});
  }

  async evidence(id: string): Promise<{ bytes: Uint8Array; fileName: string }> {
    const response = await fetch(`${this.url}/api/client-certifications/${id}/evidence`, {
      headers: this.cookie ? { cookie: this.cookie } : {},
    });
    if (!response.ok) throw new ConsoleApiError(`The evidence download answered ${response.status}.`);
    const disposition = response.headers.get("content-disposition") ?? "";
    const fileName = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? `client-faults-${id}.zip`;
    return { bytes: new Uint8Array(await response.arrayBuffer()), fileName };
  }
}

export interface CommandRun {
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** The last lines the command printed (stdout and stderr), for the report. */
  tail: string;
}

export interface CommandOptions {
  command: string;
  env: Record<string, string>;
  keepCwd: boolean;
  timeLimitMs: number;
}

const TAIL_CHARS = 2000;

/** Runs the command with `sh -c` in a fresh empty directory; kills its process group past the time limit. */
export function runCommand(options: CommandOptions): Promise<CommandRun> {
  const cwd = options.keepCwd ? process.cwd() : mkdtempSync(path.join(tmpdir(), "certify-client-"));
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", options.command], {
      cwd,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let tail = "";
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString("utf8")).slice(-TAIL_CHARS);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, options.timeLimitMs);
    const done = (exitCode: number | null) => {
      clearTimeout(timer);
      if (!options.keepCwd) rmSync(cwd, { recursive: true, force: true });
      resolve({ exitCode, timedOut, durationMs: Date.now() - started, tail });
    };
    child.on("error", (error) => {
      tail += `\n${error.message}`;
      done(null);
    });
    child.on("close", (code) => done(timedOut ? null : code));
  });
}
