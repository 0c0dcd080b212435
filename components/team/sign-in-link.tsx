"use client";

import { usePathname } from "next/navigation";
import { buttonClasses } from "@/components/ui/button";
import { loginUrl } from "@/lib/client/api-keys";

/** "Sign in": to the provider through the console, and back to the page the visitor asked for. */
export function SignInLink({ label, returnTo }: { label: string; returnTo?: string }) {
  const pathname = usePathname();
  return (
    <a href={loginUrl(returnTo ?? pathname ?? "/")} className={buttonClasses("primary", "lg")}>
      {label}
    </a>
  );
}
