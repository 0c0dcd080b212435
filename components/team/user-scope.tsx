"use client";

import { useEffect, type ReactNode } from "react";
import { identityChanged, setUserScope } from "@/lib/client/user-scope";
import { useMe } from "./use-me";

/**
 * Files the page's browser-side state under the signed-in user's key (lib/client/user-scope) before any child
 * reads it, and reloads the page when /api/me (revalidated on focus) names another user than the page was
 * loaded for: a reverse proxy may switch users without any sign-out.
 */
export function UserScope({ userKey, children }: { userKey: string; children: ReactNode }) {
  // During render, so that the children's first reads of storage already use this user's names.
  setUserScope(userKey);
  const { data } = useMe();
  const now = data?.user?.key;
  useEffect(() => {
    if (now !== undefined && now !== userKey) identityChanged();
  }, [now, userKey]);
  return children;
}
