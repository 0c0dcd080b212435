import type { Role } from "@/lib/server/identity/roles";

/** Where a role's work starts: its first step on the home page, and the way out of a page it may not open. */
export interface RoleStart {
  role: Role;
  href: string;
  /** The step, as a button says it: "Look up a card". */
  step: string;
  /** The page, as a link names it: "the support desk". */
  page: string;
}

export const ROLE_STARTS: Record<Role, RoleStart> = {
  engineer: { role: "engineer", href: "/connect", step: "Connect and run an inquiry", page: "Connect" },
  tester: { role: "tester", href: "/certification", step: "Certify a client", page: "Certification" },
  support: { role: "support", href: "/support", step: "Look up a card", page: "the support desk" },
  admin: { role: "admin", href: "/audit", step: "Read the audit log", page: "the audit log" },
};

/** The widest role first: a tester who is also support starts where a tester does. */
const BY_REACH: readonly Role[] = ["admin", "tester", "engineer", "support"];

/** The start of the user's widest role; null without a role. */
export function roleStart(roles: readonly string[]): RoleStart | null {
  const role = BY_REACH.find((candidate) => roles.includes(candidate));
  return role ? ROLE_STARTS[role] : null;
}
