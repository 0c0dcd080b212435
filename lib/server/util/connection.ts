/**
 * The connection under the request being handled, where the console's own server (scripts/serve.mjs) gives it:
 * that server runs each request inside an AsyncLocalStorage holding a control of its socket. The embedded
 * sandbox's fault plans reset it (docs/design.md §14). Without that server (`next dev`, handlers called
 * in-process) there is none, and a reset fault only closes the connection.
 */
import "server-only";
import type { AsyncLocalStorage } from "node:async_hooks";
import type { SandboxConnection } from "@/lib/sandbox";

const CONNECTIONS = Symbol.for("card-services-console.connections");

export function currentConnection(): SandboxConnection | undefined {
  const storage = (globalThis as Record<symbol, unknown>)[CONNECTIONS] as
    AsyncLocalStorage<SandboxConnection> | undefined;
  return storage?.getStore();
}
