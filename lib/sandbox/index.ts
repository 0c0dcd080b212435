/**
 * The embedded Card Services sandbox (docs/design.md §5): a framework-free handler from a Web `Request` to a
 * `Response`, used both in-process (mounted in the console under /sandbox) and by the standalone server.
 * It must import nothing from Next.
 */
import { SandboxEngine } from "./engine";
import { createHoldGate, withHolds } from "./holds";
import { errorResponse } from "./http";
import { withRegisteredClients } from "./registered-clients";
import type { Sandbox, SandboxOptions } from "./types";

export type {
  SandboxClientPort,
  RegisteredClient,
  SandboxCall,
  ArmedBehaviour,
  PlannedCall,
} from "./registered-clients";
export type { SandboxConnection } from "./faults";
export type { Sandbox, SandboxOptions } from "./types";

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const engine = new SandboxEngine(options);
  const handle = options.clients
    ? withRegisteredClients({
        port: options.clients,
        handle: (request) => engine.handle(request),
        tokenOwner: (token) => engine.tokenOwner(token),
        localPath: (url) => engine.localPath(url),
        delayMs: options.slowResponseMs ?? 30_000,
        now: options.now ?? Date.now,
        issueToken: (client, seconds) => engine.issueToken(client, seconds),
      })
    : (request: Request) => engine.handle(request);
  // Answers held back are bounded per caller and in all (./holds); a request without a caller shares one bound.
  const holds = createHoldGate(options.slowResponseMs ?? 30_000);
  return {
    handle: (request, caller = "unknown", connection) =>
      withHolds(holds, caller, () => handle(request, connection), errorResponse),
    reset: () => engine.reset(),
    revokeTokens: () => engine.revokeTokens(),
    stats: () => engine.stats(),
  };
}
