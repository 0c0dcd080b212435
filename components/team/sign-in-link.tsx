"use client";

import { usePathname } from "next/navigation";
import { useSyncExternalStore } from "react";
import { buttonClasses } from "@/components/ui/button";
import { loginUrl } from "@/lib/client/api-keys";

const noSubscription = () => () => {};

/**
 * The page the visitor is on, query and fragment included (`/certification?run=…`), read from the location once
 * hydrated; the server's render only knows the path. The server checks it again (lib/server/identity/return-to).
 */
function useCurrentLocation(): string {
  const pathname = usePathname() ?? "/";
  return useSyncExternalStore(
    noSubscription,
    () => window.location.pathname + window.location.search + window.location.hash,
    () => pathname,
  );
}

/** "Sign in": to the provider through the console, and back to the page the visitor asked for. */
export function SignInLink({ label, returnTo }: { label: string; returnTo?: string }) {
  const here = useCurrentLocation();
  return (
    <a href={loginUrl(returnTo ?? here)} className={buttonClasses("primary", "lg")}>
      {label}
    </a>
  );
}
