"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { MeAllows } from "@/lib/server/identity/me";
import { PAGE_ACCESS } from "@/components/team/page-access";
import { useAllows } from "@/components/team/use-me";
import { cx } from "@/components/ui/class-names";

interface ConsolePage {
  href: string;
  label: string;
  /** Shown only when the user's roles allow this (GET /api/me); no `allowed`: shown to every role. */
  allowed?: (allows: MeAllows | null) => boolean;
}

/** The page's own rule (components/team/page-access), so navigation and page never disagree. */
const rule =
  (page: keyof typeof PAGE_ACCESS) =>
  (allows: MeAllows | null): boolean =>
    allows !== null && PAGE_ACCESS[page].allowed(allows);

const CONSOLE_PAGES: readonly ConsolePage[] = [
  { href: "/connect", label: "Connect", allowed: rule("connect") },
  { href: "/token", label: "Token", allowed: rule("token") },
  { href: "/inquiry", label: "Inquiry", allowed: rule("rawExchange") },
  { href: "/compare", label: "Compare", allowed: rule("rawExchange") },
  { href: "/history", label: "History", allowed: rule("rawExchange") },
  { href: "/certification", label: "Certification", allowed: rule("certification") },
  { href: "/monitors", label: "Monitors", allowed: rule("monitors") },
  { href: "/support", label: "Support desk", allowed: rule("support") },
  { href: "/audit", label: "Audit log", allowed: rule("audit") },
  { href: "/admin/sessions", label: "Sessions", allowed: rule("admin") },
];

/** The pages the user's roles allow, in navigation order. */
function allowedPages(allows: MeAllows | null): readonly ConsolePage[] {
  return CONSOLE_PAGES.filter((page) => !page.allowed || page.allowed(allows));
}

export function NavLinks() {
  const pathname = usePathname();
  const allows = useAllows();
  return (
    <nav
      aria-label="Console"
      className="mx-auto flex max-w-6xl flex-col gap-1 px-2 pb-2 sm:flex-row sm:items-center sm:overflow-x-auto sm:px-4 sm:pb-0"
    >
      {allowedPages(allows).map((page) => {
        const current = pathname === page.href || pathname.startsWith(`${page.href}/`);
        return (
          <Link
            key={page.href}
            href={page.href}
            aria-current={current ? "page" : undefined}
            className={cx(
              "relative px-3 py-2.5 text-sm font-medium whitespace-nowrap transition-colors",
              "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500",
              "after:absolute after:inset-x-2 after:bottom-0 after:h-0.5 after:rounded-full",
              current ? "text-accent after:bg-accent" : "text-muted hover:text-fg",
            )}
          >
            {page.label}
          </Link>
        );
      })}
      <Link
        href="/sandbox"
        className="px-3 py-2.5 text-sm sm:ml-auto whitespace-nowrap text-muted hover:text-fg focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500"
      >
        Sandbox docs
      </Link>
    </nav>
  );
}
