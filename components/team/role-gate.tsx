"use client";

import type { ReactNode } from "react";
import type { MeAllows } from "@/lib/server/identity/me";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { buttonClasses } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { roleStart } from "./role-start";
import { useAllows, useMe } from "./use-me";

const ROLE_NAMES: Record<string, string> = {
  support: "Support",
  engineer: "An engineer",
  tester: "A tester",
  admin: "An administrator",
};

/**
 * The refusal's title, plain: "Support cannot open the audit log" when one role is at stake, else "Your role
 * cannot open this page" (several roles, or one this console does not name).
 */
function refusalTitle(roles: readonly string[], page: string): string {
  const only = roles.length === 1 ? ROLE_NAMES[roles[0]!] : undefined;
  return only ? `${only} cannot open ${page}` : "Your role cannot open this page";
}

/**
 * A page's content only for roles that may use it; others read why. The server refuses those calls anyway:
 * this only spares people a page full of buttons that answer 403.
 */
export function RoleGate({
  allowed,
  what,
  title,
  children,
}: {
  allowed: (allows: MeAllows) => boolean;
  /** What the page is for, e.g. "The audit log". */
  what: string;
  /** The page as the end of a sentence, e.g. "the audit log". */
  title: string;
  children: ReactNode;
}) {
  const { data } = useMe();
  const allows = useAllows();
  const pathname = usePathname();
  if (!data) return null;
  if (allows && allowed(allows)) return <>{children}</>;
  const roles = data.user?.roles ?? [];
  const start = roleStart(roles);
  return (
    <>
      <PageHeader
        title={refusalTitle(roles, title)}
        description={
          <>
            {what} is not available to{" "}
            {roles.length ? `the role${roles.length > 1 ? "s" : ""} ${roles.join(", ")}` : "you"}. Ask an
            administrator of the console if you need it.
          </>
        }
      />
      {/* A way out other than the menu: back to where this role's work starts. */}
      <div className="flex flex-wrap gap-3">
        {start && start.href !== pathname ? (
          <Link href={start.href} className={buttonClasses("primary", "md")}>
            Go to {start.page}
            <span aria-hidden="true">→</span>
          </Link>
        ) : null}
        <Link href="/" className={buttonClasses("secondary", "md")}>
          Home
        </Link>
      </div>
    </>
  );
}
