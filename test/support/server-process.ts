/**
 * Starts a server script as its own process (the standalone output's server.js or sandbox.mjs, or
 * scripts/serve.mjs) with exactly the environment given, and keeps what the tests need: its logs, a way to wait
 * for a log line, its exit code, and a signal to stop it. Waits until the server answers HTTP.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { recordStart } from "./shared";

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  logs: () => string;
  /** Resolves when a log line matching `pattern` has been written. */
  waitForLog: (pattern: RegExp) => Promise<void>;
  /** The exit code once the process has ended (null when killed by a signal). */
  exited: Promise<number | null>;
  stop: () => Promise<void>;
}

export interface StartOptions {
  script: string;
  cwd: string;
  env: Record<string, string>;
  /** Where to probe until the server answers, e.g. http://127.0.0.1:4321/api/health. */
  probeUrl: string;
  url: string;
  probeInit?: RequestInit;
}

export async function startServerProcess(options: StartOptions): Promise<ServerProcess> {
  const env: NodeJS.ProcessEnv = { NODE_ENV: "production", PATH: process.env.PATH ?? "", ...options.env };
  recordStart("server-process");
  const child: ChildProcess = spawn(process.execPath, [options.script], {
    cwd: options.cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(output)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code: number | null) => resolve(code)),
  );

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${options.script} exited early:\n${output}`);
    try {
      const response = await fetch(options.probeUrl, options.probeInit);
      await response.arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`${options.script} did not answer within 60 s:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
  return {
    child,
    url: options.url,
    logs: () => output,
    waitForLog: (pattern) =>
      pattern.test(output) ? Promise.resolve() : new Promise((resolve) => waiters.push({ pattern, resolve })),
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }
      await exited;
    },
  };
}
