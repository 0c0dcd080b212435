import "server-only";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { SWRConfig } from "swr";
import type { SessionInfo } from "@/lib/api/contracts";
import { describeSession } from "@/lib/card-api/operations";
import { apiKeys } from "@/lib/client/api-keys";
import { logger } from "@/lib/logger";
import { getSession } from "@/lib/session";

/**
 * Renders the page with the session already known (what GET /api/session would answer), so that the
 * header and the pages paint their real state at once instead of a skeleton that then jumps. The same
 * SessionInfo as the API: no secret, no token. The browser still revalidates it through SWR.
 */
async function currentSessionInfo(): Promise<SessionInfo | null> {
  // Outside the try: reading headers is how Next.js learns that the page is rendered per request.
  const incoming = await headers();
  try {
    // getSession reads a Request: the cookie, and the protocol (X-Forwarded-Proto, set by Next.js).
    const request = new Request("http://console.invalid/", { headers: new Headers(incoming) });
    return describeSession(await getSession(request));
  } catch (error) {
    logger.warn({ error: error instanceof Error ? error.message : "unknown" }, "session not pre-rendered");
    return null;
  }
}

export async function SessionProvider({ children }: { children: ReactNode }) {
  const session = await currentSessionInfo();
  return (
    <SWRConfig value={{ fallback: session ? { [apiKeys.session]: session } : {} }}>{children}</SWRConfig>
  );
}
