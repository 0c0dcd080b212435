import type { ReactNode } from "react";
import { SWRConfig } from "swr";
import type { MeResponse } from "@/lib/server/identity/me";
import { apiKeys } from "@/lib/client/api-keys";

/**
 * Hands the server's GET /api/me answer to SWR as its fallback, so that the header, the navigation and the
 * pages render for the user's roles from the first paint (nothing appears and then disappears).
 * Nested SWRConfig fallbacks merge, so the session's pre-rendered answer stays.
 */
export function MeProvider({ me, children }: { me: MeResponse; children: ReactNode }) {
  return <SWRConfig value={{ fallback: { [apiKeys.me]: me } }}>{children}</SWRConfig>;
}
