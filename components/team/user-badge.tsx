"use client";

import { SignOutButton } from "./sign-out-button";
import { useMe } from "./use-me";

/**
 * Who is signed in and with which roles; "Sign out" when the console signed them in (oidc). The local user of
 * AUTH_MODE=none has nothing to show here. In proxy mode the proxy owns the sign-out.
 */
export function UserBadge() {
  const { data } = useMe();
  const user = data?.user;
  if (!user || user.signed_in_with === "none") return null;
  return (
    <div className="flex items-center gap-1.5" data-testid="signed-in-user">
      <span className="flex min-w-0 flex-col items-end leading-tight">
        <span className="max-w-40 truncate text-sm font-medium text-fg">{user.name}</span>
        <span className="text-xs text-muted">
          <span className="sr-only">Roles: </span>
          {user.roles.join(", ")}
        </span>
      </span>
      {user.signed_in_with === "oidc" ? <SignOutButton /> : null}
    </div>
  );
}
