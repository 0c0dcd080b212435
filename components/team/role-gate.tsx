"use client";

import type { ReactNode } from "react";
import type { MeAllows } from "@/lib/server/identity/me";
import { Alert } from "@/components/ui/alert";
import { useAllows, useMe } from "./use-me";

/**
 * A page's content only for roles that may use it; others read why. The server refuses those calls anyway:
 * this only spares people a page full of buttons that answer 403.
 */
export function RoleGate({
  allowed,
  what,
  children,
}: {
  allowed: (allows: MeAllows) => boolean;
  /** What the page is for, e.g. "The audit log". */
  what: string;
  children: ReactNode;
}) {
  const { data } = useMe();
  const allows = useAllows();
  if (!data) return null;
  if (allows && allowed(allows)) return <>{children}</>;
  const roles = data.user?.roles ?? [];
  return (
    <>
      {/* The page's own heading is behind the gate: this one names the page for screen readers. */}
      <h1 className="sr-only">{what}</h1>
      <Alert tone="warning" title="Your role does not allow this page" role="status">
        <p>
          {what} is not available to{" "}
          {roles.length ? `the role${roles.length > 1 ? "s" : ""} ${roles.join(", ")}` : "you"}. Ask an
          administrator of the console if you need it.
        </p>
      </Alert>
    </>
  );
}
