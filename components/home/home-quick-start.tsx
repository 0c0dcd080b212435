"use client";

import Link from "next/link";
import { useSession } from "@/lib/client/use-session-api";
import { PAGE_ACCESS } from "@/components/team/page-access";
import { useAllows } from "@/components/team/use-me";
import { buttonClasses } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";

interface Step {
  href: string;
  title: string;
  text: string;
}

const ENGINEER_STEPS: readonly Step[] = [
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
];

/** The support desk's own start: its pages only (support sees no token or raw inquiry, docs/design.md §6). */
const SUPPORT_STEPS: readonly Step[] = [
  {
    href: "/support",
    title: "Look up a card",
    text: "Type or scan a card number: the eight balances, last 4 shown.",
  },
  {
    href: "/support",
    title: "Find a transaction",
    text: "By its Request Id: when it happened, its result and the gift balance.",
  },
  {
    href: "/support",
    title: "Run a batch",
    text: "Paste or upload many cards; download the masked results.",
  },
];

/** What support may do, on its home page: the page above speaks to engineers. */
const SUPPORT_SUMMARY =
  "As support you look up a card's eight balances (Balance Inquiry only: nothing is recorded on the card), find a transaction by its Request Id, and run batches of cards with a masked CSV of the results. Cards show only their last 4 digits; no raw request, response or token is ever shown; every lookup is kept in the audit log.";

/** Connect → token → inquiry for roles that may use them; the support desk's steps for support. */
function useHomeSteps(): { steps: readonly Step[]; engineer: boolean } {
  const allows = useAllows();
  if (allows && PAGE_ACCESS.connect.allowed(allows)) return { steps: ENGINEER_STEPS, engineer: true };
  if (allows && PAGE_ACCESS.support.allowed(allows)) return { steps: SUPPORT_STEPS, engineer: false };
  return { steps: [], engineer: false };
}

/** The hero's first button: where this user's work starts. */
export function HomeStartLink() {
  const { steps } = useHomeSteps();
  const first = steps[0];
  if (!first) return null;
  return (
    <Link href={first.href} className={buttonClasses("primary", "lg")}>
      Start: {first.title.toLowerCase()}
      <span aria-hidden="true">→</span>
    </Link>
  );
}

/** The steps of this user's roles, each marked done from the live session where that means something. */
export function HomeQuickStart() {
  const { data: session } = useSession();
  const { steps, engineer } = useHomeSteps();
  const done = engineer
    ? [Boolean(session && session.credentials.source !== "none"), Boolean(session?.token), false]
    : [false, false, false];
  if (steps.length === 0) return null;
  return (
    <section aria-labelledby="quick-start">
      <h2 id="quick-start" className="text-lg font-semibold text-fg">
        Quick start
      </h2>
      {engineer ? null : (
        <p className="mt-2 max-w-3xl text-sm text-body" data-testid="support-summary">
          {SUPPORT_SUMMARY}
        </p>
      )}
      <ol className="mt-4 grid gap-4 md:grid-cols-3">
        {steps.map((step, index) => (
          <li key={step.title}>
            <Link
              href={step.href}
              className={cx(
                "group flex h-full flex-col rounded-xl border bg-panel p-5 shadow-sm transition-colors",
                "hover:border-indigo-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500",
                "border-default",
              )}
            >
              <span className="flex items-center gap-3">
                <span
                  aria-hidden="true"
                  className={cx(
                    "flex size-7 items-center justify-center rounded-full text-sm font-semibold",
                    done[index]
                      ? "bg-emerald-600 text-inverted"
                      : "bg-accent-soft text-accent-strong ring-1 ring-accent",
                  )}
                >
                  {done[index] ? "✓" : index + 1}
                </span>
                <span className="font-medium text-fg group-hover:text-accent">{step.title}</span>
                {done[index] ? <span className="sr-only">(done)</span> : null}
              </span>
              <span className="mt-2 text-sm text-muted">{step.text}</span>
            </Link>
          </li>
        ))}
      </ol>
    </section>
  );
}
