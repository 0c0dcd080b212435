import "server-only";
import { headers } from "next/headers";
import { getPageSessionInfo } from "@/lib/server/identity/page-identity";
import type { ReactNode } from "react";
import { SWRConfig } from "swr";
import type { SessionInfo } from "@/lib/shared/contracts";
import { apiKeys } from "@/lib/client/api-keys";
import { logger } from "@/lib/server/util/logger";
import { consoleRoot } from "@/lib/server/root";

/**
 * Renders the page with the session already known (what GET /api/session would answer), so that the
 * header and the pages paint their real state at once instead of a skeleton that then jumps. The same
 * SessionInfo as the API: no secret, no token. The browser still revalidates it through SWR.
 */
async function currentSessionInfo(): Promise<SessionInfo | null> {
  // Outside the try: reading headers is how Next.js learns that the page is rendered per request.
  await headers();
  try {
    // The caller's identity and role decide what is shown (no token details for support).
    return await getPageSessionInfo(consoleRoot());
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
