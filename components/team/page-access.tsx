"use client";

import type { ReactNode } from "react";
import type { MeAllows } from "@/lib/server/identity/me";
import { RoleGate } from "./role-gate";
import { allowsGlobal, allowsSomewhere } from "./use-me";

/**
 * The console pages' access rules for the pages themselves; the navigation and the home page apply the same ones
 * (components/shell/nav-links), so a page a role cannot use is neither offered nor shows a form.
 */
export const PAGE_ACCESS = {
  // `what` starts a sentence ("… is not available"); `title` ends the refusal's title ("Support cannot open …").
  connect: {
    what: "Connecting with client credentials",
    title: "Connect",
    allowed: (allows: MeAllows) => allowsSomewhere(allows, "token_request"),
  },
  certification: {
    what: "Certification runs",
    title: "certification runs",
    allowed: (allows: MeAllows) => allowsSomewhere(allows, "certification_run"),
  },
  monitors: {
    what: "Monitors",
    title: "monitors",
    allowed: (allows: MeAllows) => allowsGlobal(allows, "monitor_read"),
  },
  support: {
    what: "The support desk",
    title: "the support desk",
    allowed: (allows: MeAllows) => allowsSomewhere(allows, "support_lookup"),
  },
  admin: {
    what: "Active sessions",
    title: "active sessions",
    allowed: (allows: MeAllows) => allowsGlobal(allows, "session_admin"),
  },
  token: {
    what: "The token inspector",
    title: "the token inspector",
    allowed: (allows: MeAllows) => allowsSomewhere(allows, "token_details"),
  },
  rawExchange: {
    what: "This page (it shows the raw requests and responses)",
    title: "this page",
    allowed: (allows: MeAllows) => allowsSomewhere(allows, "raw_exchange"),
  },
  audit: {
    what: "The audit log",
    title: "the audit log",
    allowed: (allows: MeAllows) => allowsGlobal(allows, "audit_read"),
  },
} as const;

export function PageAccess({ page, children }: { page: keyof typeof PAGE_ACCESS; children: ReactNode }) {
  const rule = PAGE_ACCESS[page];
  return (
    <RoleGate allowed={rule.allowed} what={rule.what} title={rule.title}>
      {children}
    </RoleGate>
  );
}
