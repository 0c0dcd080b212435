import type { Metadata } from "next";
import Link from "next/link";
import { AudienceFirstStep } from "@/components/home/audience-first-step";
import { HomeQuickStart, HomeStartLink } from "@/components/home/home-quick-start";
import { ConsoleShell } from "@/components/shell/console-shell";
import { buttonClasses } from "@/components/ui/button";
import { Panel } from "@/components/ui/panel";
import { CODE_LANGUAGES } from "@/lib/shared/code-languages";

export const metadata: Metadata = { title: { absolute: "Card Services Console" } };

const LANGUAGES = CODE_LANGUAGES.length;

const AUDIENCES = [
  {
    role: "engineer",
    who: "Integration engineers",
    what: `Get a token and see what is in it, run both balance operations, read the exact request and response, and copy it as code in ${LANGUAGES} languages. Or download a starter client that already gets its token and runs both.`,
  },
  {
    role: "tester",
    who: "Certification testers",
    what: "Certify the API against the specification's cases, and a client application as it calls the sandbox, with signed evidence for the operator. Monitors run the checks on a schedule and alert when one fails.",
  },
  {
    role: "support",
    who: "Support agents",
    what: "Look up a card's balances, find a transaction by its Request Id, and run batches of cards. Cards show their last 4 digits only, and every lookup is kept in the audit log.",
  },
  {
    role: "admin",
    who: "Administrators",
    what: "Read the audit log and check that nothing in it was changed, see who is signed in, end sessions and suspend users.",
  },
] as const;

const PREVIEW = [
  {
    method: "POST",
    path: "/reporting/v1/auth/token",
    status: "200",
    lines: [["scope", "read:transactions …"]],
  },
  {
    method: "POST",
    path: "/transaction/v1/gift/balance-inquiry",
    status: "201",
    lines: [
      ["response_status", "approved"],
      ["balance", "25.00"],
    ],
  },
  {
    method: "POST",
    path: "/transaction/v1/balance-inquiry",
    status: "200",
    lines: [["balances", "8 purses"]],
  },
] as const;

/** A glance at what a session looks like: a token, then both inquiries. */
function SessionPreview() {
  // A terminal, dark in both themes: its colours are fixed rather than roles.
  return (
    <figure className="overflow-hidden rounded-xl border border-code bg-slate-900 shadow-xl">
      <div className="flex items-center gap-1.5 border-b border-slate-800 px-4 py-2.5" aria-hidden="true">
        <span className="size-2.5 rounded-full bg-slate-600" />
        <span className="size-2.5 rounded-full bg-slate-600" />
        <span className="size-2.5 rounded-full bg-slate-600" />
      </div>
      <ol className="space-y-3 px-4 py-4 font-mono text-xs leading-5">
        {PREVIEW.map((step) => (
          <li key={step.path}>
            <p className="flex flex-wrap items-center gap-x-2 text-slate-200">
              <span className="text-indigo-300">{step.method}</span>
              <span className="min-w-0 break-all">{step.path}</span>
              <span className="ml-auto text-emerald-300">{step.status}</span>
            </p>
            {step.lines.map(([key, value]) => (
              <p key={key} className="pl-4 text-slate-400">
                {key} <span className="text-emerald-300">{value}</span>
              </p>
            ))}
          </li>
        ))}
      </ol>
      <figcaption className="border-t border-slate-800 px-4 py-2.5 text-xs text-slate-400">
        A token, then both balance operations, each with its exact exchange.
      </figcaption>
    </figure>
  );
}

export default function HomePage() {
  return (
    <ConsoleShell>
      <div className="mx-auto max-w-5xl">
        <section
          aria-labelledby="home-title"
          className="grid items-center gap-10 pt-2 pb-10 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]"
        >
          <div>
            <p className="text-sm font-medium text-accent">Card Services API · OAuth 2.0</p>
            <h1
              id="home-title"
              className="mt-2 max-w-3xl text-3xl font-semibold tracking-tight text-fg sm:text-4xl"
            >
              A console for the Card Services API: try it, certify against it, support its cards.
            </h1>
            <p className="mt-4 max-w-2xl text-base text-body">
              Request tokens and run Gift Balance Inquiry and Balance Inquiry, each exchange exactly as it
              went over the wire and as code in {LANGUAGES} languages. Certify the API and your own client
              application, keep watch with monitors, and serve card holders from the support desk. It works
              out of the box against the embedded sandbox, and unchanged against a configured sandbox or
              production.
            </p>
            <div className="mt-6 flex flex-wrap items-center gap-3">
              <HomeStartLink />
              <Link href="/sandbox" className={buttonClasses("secondary", "lg")}>
                Embedded sandbox docs
              </Link>
            </div>
          </div>
          <SessionPreview />
        </section>

        <HomeQuickStart />

        <section aria-labelledby="audiences" className="mt-12">
          <h2 id="audiences" className="text-lg font-semibold text-fg">
            Who it is for
          </h2>
          <ul className="mt-4 grid gap-4 md:grid-cols-2">
            {AUDIENCES.map((audience) => (
              <Panel as="li" key={audience.who} bodyClassName="p-5">
                <h3 className="font-medium text-fg">{audience.who}</h3>
                <p className="mt-2 text-sm text-muted">{audience.what}</p>
                <AudienceFirstStep role={audience.role} />
              </Panel>
            ))}
          </ul>
        </section>

        <Panel aria-labelledby="safety" className="mt-12 mb-4" bodyClassName="p-6">
          <h2 id="safety" className="text-lg font-semibold text-fg">
            What stays on the server
          </h2>
          <ul className="mt-3 grid gap-3 text-sm text-body sm:grid-cols-3">
            <li>
              <span className="font-medium text-fg">Client secret and access token.</span> Held in an
              encrypted, HttpOnly session cookie; the browser sees a fingerprint, scopes and expiry.
            </li>
            <li>
              <span className="font-medium text-fg">Full card numbers.</span> Masked to the first 6 and last 4
              digits in results, history and copied code, unless you opt in.
            </li>
            <li>
              <span className="font-medium text-fg">Upstream addresses.</span> Only the server&apos;s
              configuration decides where calls go; production is marked in red and asks before recording a
              transaction.
            </li>
          </ul>
        </Panel>
      </div>
    </ConsoleShell>
  );
}
