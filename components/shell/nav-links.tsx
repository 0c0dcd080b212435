"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "@/components/ui/class-names";

export const CONSOLE_PAGES = [
  { href: "/connect", label: "Connect" },
  { href: "/token", label: "Token" },
  { href: "/inquiry", label: "Inquiry" },
  { href: "/compare", label: "Compare" },
  { href: "/history", label: "History" },
  { href: "/support", label: "Support desk" },
] as const;

export function NavLinks() {
  const pathname = usePathname();
  return (
    <nav
      aria-label="Console"
      className="mx-auto flex max-w-6xl items-center gap-1 overflow-x-auto px-2 sm:px-4"
    >
      {CONSOLE_PAGES.map((page) => {
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
              current
                ? "text-indigo-700 after:bg-indigo-600 dark:text-indigo-300 dark:after:bg-indigo-400"
                : "text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white",
            )}
          >
            {page.label}
          </Link>
        );
      })}
      <Link
        href="/sandbox"
        className="ml-auto px-3 py-2.5 text-sm whitespace-nowrap text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500 dark:text-slate-400 dark:hover:text-white"
      >
        Sandbox docs
      </Link>
    </nav>
  );
}
