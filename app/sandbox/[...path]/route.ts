/**
 * Mounts the embedded sandbox at /sandbox/*: every method is handed, untouched, to the framework-free handler,
 * and its Response is returned as is (status, headers and body pass through).
 */
import { consoleRoot } from "@/lib/server/root";
import { isEmbeddedSandboxEnabled } from "@/lib/server/root/embedded-sandbox";
import { errorResponse } from "@/lib/sandbox/http";

export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  if (!isEmbeddedSandboxEnabled()) {
    return errorResponse(
      404,
      "sandbox_disabled",
      "Not found",
      "The embedded sandbox is off (EMBEDDED_SANDBOX=off).",
    );
  }
  return consoleRoot().embeddedSandbox().handle(request);
}

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const HEAD = handle;
export const OPTIONS = handle;
