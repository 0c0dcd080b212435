"use client";

import Link from "next/link";
import { PAGE_ACCESS } from "@/components/team/page-access";
import { ROLE_STARTS } from "@/components/team/role-start";
import { useAllows } from "@/components/team/use-me";
import type { Role } from "@/lib/server/identity/roles";

/** The page each role's first step opens, by the page's own access rule. */
const FIRST_PAGE: Record<Role, keyof typeof PAGE_ACCESS> = {
  engineer: "connect",
  tester: "certification",
  support: "support",
  admin: "audit",
};

/** "First step: Certify a client →", for a role whose first page this user may open. */
export function AudienceFirstStep({ role }: { role: Role }) {
  const allows = useAllows();
  if (!allows || !PAGE_ACCESS[FIRST_PAGE[role]].allowed(allows)) return null;
  const start = ROLE_STARTS[role];
  return (
    <Link href={start.href} className="mt-3 inline-flex text-sm font-medium text-accent underline">
      First step: {start.step}
      <span aria-hidden="true">&nbsp;→</span>
    </Link>
  );
}
