"use client";

import Link from "next/link";
import { useSession } from "@/lib/client/use-session-api";
import { cx } from "@/components/ui/class-names";

const STEPS = [
  {
    href: "/connect",
    title: "Connect",
    text: "Use the embedded sandbox's demo credentials, server-held ones, or your own client_id and secret.",
  },
  {
    href: "/token",
    title: "Request a token",
    text: "See its scopes, expiry countdown, fingerprint and decoded claims.",
  },
  {
    href: "/inquiry",
    title: "Run an inquiry",
    text: "Gift Balance Inquiry or Balance Inquiry, with the exact exchange and copy-as-code.",
  },
] as const;

/** Connect → token → inquiry, with each step marked done from the live session. */
export function HomeQuickStart() {
  const { data: session } = useSession();
  const done = [Boolean(session && session.credentials.source !== "none"), Boolean(session?.token), false];
  return (
    <section aria-labelledby="quick-start">
      <h2 id="quick-start" className="text-lg font-semibold text-slate-900 dark:text-white">
        Quick start
      </h2>
      <ol className="mt-4 grid gap-4 md:grid-cols-3">
        {STEPS.map((step, index) => (
          <li key={step.href}>
            <Link
              href={step.href}
              className={cx(
                "group flex h-full flex-col rounded-xl border bg-white p-5 shadow-sm transition-colors dark:bg-slate-900",
                "hover:border-indigo-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:hover:border-indigo-400",
                "border-slate-200 dark:border-slate-800",
              )}
            >
              <span className="flex items-center gap-3">
                <span
                  aria-hidden="true"
                  className={cx(
                    "flex size-7 items-center justify-center rounded-full text-sm font-semibold",
                    done[index]
                      ? "bg-emerald-600 text-white"
                      : "bg-indigo-50 text-indigo-700 ring-1 ring-indigo-200 dark:bg-indigo-400/10 dark:text-indigo-200 dark:ring-indigo-400/30",
                  )}
                >
                  {done[index] ? "✓" : index + 1}
                </span>
                <span className="font-medium text-slate-900 group-hover:text-indigo-700 dark:text-white dark:group-hover:text-indigo-300">
                  {step.title}
                </span>
                {done[index] ? <span className="sr-only">(done)</span> : null}
              </span>
              <span className="mt-2 text-sm text-slate-600 dark:text-slate-400">{step.text}</span>
            </Link>
          </li>
        ))}
      </ol>
    </section>
  );
}
