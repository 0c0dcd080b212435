"use client";

import useSWR from "swr";
import type { EnvironmentName } from "@/lib/shared/contracts";
import type { MeAllows, MeResponse } from "@/lib/server/identity/me";
import type { EnvironmentAction, GlobalAction } from "@/lib/server/identity/roles";
import { apiKeys } from "@/lib/client/api-keys";
import { getJson } from "@/lib/client/fetcher";

/**
 * GET /api/me through SWR. The shell pre-renders it (MeProvider), so the first paint already knows the user.
 * The answer is the console's own, typed by lib/server/identity/me.ts: it is trusted without a zod parse in the browser,
 * which keeps zod out of every page's first load.
 */
export function useMe() {
  return useSWR<MeResponse>(apiKeys.me, getJson, { revalidateOnFocus: true });
}

/** What the signed-in user may do; null while unknown or when signed out. */
export function useAllows(): MeAllows | null {
  const { data } = useMe();
  return data && data.user ? data.allows : null;
}

/** May the user do `action` in `environment`? Unknown (no answer yet) counts as no. */
export function allowsIn(allows: MeAllows | null, action: EnvironmentAction, environment: EnvironmentName) {
  return allows?.environments[environment]?.includes(action) ?? false;
}

/** Is `action` allowed in at least one configured environment (for showing a page, never for enforcing)? */
export function allowsSomewhere(allows: MeAllows | null, action: EnvironmentAction): boolean {
  if (!allows) return false;
  return Object.values(allows.environments).some((actions) => actions?.includes(action));
}

export function allowsGlobal(allows: MeAllows | null, action: GlobalAction): boolean {
  return allows?.global.includes(action) ?? false;
}
