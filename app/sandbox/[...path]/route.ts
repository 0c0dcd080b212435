/**
 * Mounts the embedded sandbox at /sandbox/*: every method is handed, untouched, to the framework-free handler,
 * and its Response is returned as is (status, headers and body pass through).
 */
import { consoleRoot } from "@/lib/server/root";
import { isEmbeddedSandboxEnabled, sandboxDisabledResponse } from "@/lib/server/root/embedded-sandbox";
import { clientAddress } from "@/lib/server/util/peer-address";
import { currentConnection } from "@/lib/server/util/connection";

export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  if (!isEmbeddedSandboxEnabled()) {
    return sandboxDisabledResponse();
  }
  const root = consoleRoot();
  return root
    .embeddedSandbox()
    .handle(request, clientAddress(request, root.config.trustedProxies) ?? undefined, currentConnection());
}

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const HEAD = handle;
export const OPTIONS = handle;
