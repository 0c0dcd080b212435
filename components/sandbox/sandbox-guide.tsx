import Link from "next/link";
import { StarterClientsLinks } from "@/components/client-certification/starter-clients-offer";
import type { ReactNode } from "react";
import { CopyButton, CopyableValue } from "@/components/exchange/copy-button";
import { Alert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { SANDBOX_CHOICES, SANDBOX_PATHS, workedExamples } from "@/lib/sandbox/docs";
import { DEMO_CLIENTS, PURSES, TEST_CARDS, type CardBehaviour, type TestCard } from "@/lib/sandbox/fixtures";
import { formatCents } from "@/lib/sandbox/money";
import { InlineCode } from "./inline-code";
import { WorkedExample } from "./worked-example";

export interface SandboxGuideProps {
  enabled: boolean;
  /** {auth_url} = {base_url} of the sandbox mounted in this console, e.g. http://localhost:3000/sandbox */
  mountedUrl: string;
  /** Address of `npm run sandbox`, e.g. http://127.0.0.1:4010 */
  standaloneUrl: string;
  /** The demo clients' secret when it is the public default; null when the server configures its own. */
  publicDemoSecret: string | null;
  slowResponseSeconds: number;
}

const BEHAVIOURS: Record<CardBehaviour, { label: string; tone: BadgeTone }> = {
  active: { label: "active", tone: "success" },
  inactive: { label: "inactive", tone: "warning" },
  server_error: { label: "500 error", tone: "danger" },
  slow: { label: "slow", tone: "warning" },
  not_json: { label: "not JSON", tone: "danger" },
  rate_limited: { label: "429 rate limited", tone: "warning" },
};

const th = "px-3 py-2 text-left text-xs font-semibold tracking-wide text-muted uppercase";
const td = "px-3 py-2.5 align-top text-sm";

function Table({ caption, head, children }: { caption: string; head: string[]; children: ReactNode }) {
  return (
    // Focusable, so that keyboard users can scroll the table sideways on narrow screens.
    <div
      role="region"
      aria-label={`${caption} table`}
      tabIndex={0}
      className="-mx-5 overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-500"
    >
      <table className="w-full min-w-[36rem] border-collapse">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-default">
          <tr>
            {head.map((label) => (
              <th key={label} scope="col" className={`${th} first:pl-5 last:pr-5`}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-subtle [&_td:first-child]:pl-5 [&_td:last-child]:pr-5 [&_th:first-child]:pl-5">
          {children}
        </tbody>
      </table>
    </div>
  );
}

function Purses({ card }: { card: TestCard }) {
  if (PURSES.every((purse) => card.purses[purse] === 0)) {
    return <span className="text-muted">every purse 0.00</span>;
  }
  return (
    <dl className="grid grid-cols-[auto_auto] gap-x-3 gap-y-0.5 font-mono text-xs sm:grid-cols-[auto_auto_auto_auto]">
      {PURSES.map((purse) => (
        <div key={purse} className="contents">
          <dt className="text-muted">{purse}</dt>
          <dd className="text-right text-fg tabular-nums">{formatCents(card.purses[purse])}</dd>
        </div>
      ))}
    </dl>
  );
}

function Address({ label, value, hint }: { label: string; value: string; hint: ReactNode }) {
  return (
    <div className="rounded-lg border border-raised p-3">
      <dt className="text-xs font-medium text-muted">{label}</dt>
      <dd className="mt-1">
        <CopyableValue value={value} name={label} />
        <p className="mt-1 text-xs text-muted">{hint}</p>
      </dd>
    </div>
  );
}

function faultExplanation(card: TestCard, slowSeconds: number): string {
  switch (card.behaviour) {
    case "server_error":
      return "Both operations answer 500 with a JSON:API error (`internal_error`). Nothing is recorded, so the Request Id stays free.";
    case "slow":
      return `Both operations answer normally, but only after ${slowSeconds} seconds: longer than the console's upstream timeout (\`CARD_API_TIMEOUT_MS\`, 10 s by default), so the console reports a 504. A caller that gives up first ends the wait, and nothing is recorded.`;
    case "not_json":
      return "Gift Balance Inquiry answers 201 and Balance Inquiry 200, with an HTML body instead of JSON. The gift transaction is still recorded: look it up by its Request Id to find out what happened.";
    case "rate_limited":
      return "Both operations answer 429 with `Retry-After: 2` and a JSON:API error (`rate_limited`). Nothing is recorded; a retry may reuse the Request Id.";
    default:
      return card.description;
  }
}

export function SandboxGuide({
  enabled,
  mountedUrl,
  standaloneUrl,
  publicDemoSecret,
  slowResponseSeconds,
}: SandboxGuideProps) {
  const examples = workedExamples(
    mountedUrl,
    publicDemoSecret ?? "the value of SANDBOX_DEMO_SECRET on the server",
  );
  const faultCards = TEST_CARDS.filter(
    (card) => card.behaviour !== "active" && card.behaviour !== "inactive",
  );

  return (
    <div className="space-y-6">
      <PageHeader
        title="Embedded sandbox"
        description={
          <>
            A self-contained implementation of the Card Services token endpoint and both balance operations,
            built into this console. It is the default environment: no credentials to request, nothing leaves
            this machine. Point any HTTP client at it, or use the console with the{" "}
            <Link href="/connect" className="font-medium text-accent underline">
              demo credentials
            </Link>
            .
          </>
        }
      />

      {enabled ? null : (
        <Alert tone="warning" role="status" title="The embedded sandbox is off on this server">
          <p>
            <InlineCode text="EMBEDDED_SANDBOX=off: requests under `/sandbox/` answer 404. `npm run sandbox` still serves it on its own." />
          </p>
        </Alert>
      )}

      <Panel title="Addresses" titleId="sandbox-addresses" description="The same paths in both places.">
        <dl className="grid gap-3 md:grid-cols-2">
          <Address
            label="In this console: {auth_url} and {base_url}"
            value={mountedUrl}
            hint={
              <InlineCode text="Both base addresses are the same, as in the specification's single token address." />
            }
          />
          <Address
            label="Standalone: npm run sandbox"
            value={standaloneUrl}
            hint={
              <InlineCode text="A plain HTTP server on its own (port `SANDBOX_PORT`, default 4010), with the paths at the root." />
            }
          />
        </dl>
        <h3 className="mt-5 text-sm font-semibold text-fg">Paths</h3>
        <Table caption="Sandbox paths" head={["Operation", "Method and path", "Answers"]}>
          {[
            ["Request an access token", "POST", "{auth_url}" + SANDBOX_PATHS.token, "200, 400"],
            [
              "Gift Balance Inquiry",
              "POST",
              "{base_url}" + SANDBOX_PATHS.giftBalanceInquiry,
              "201, 400, 401, 403, 409",
            ],
            [
              "Balance Inquiry",
              "POST",
              "{base_url}" + SANDBOX_PATHS.balanceInquiry,
              "200, 400, 401, 403, 404",
            ],
            [
              "Lookup by Request Id",
              "GET",
              "{base_url}" + SANDBOX_PATHS.transactionByRequestId,
              "200, 401, 403, 404",
            ],
          ].map(([operation, method, path, statuses]) => (
            <tr key={operation}>
              <th scope="row" className={`${td} text-left font-medium`}>
                {operation}
              </th>
              <td className={td}>
                <span className="inline-flex flex-wrap items-center gap-2">
                  <Badge tone="accent">{method}</Badge>
                  <code className="font-mono text-xs break-all">{path}</code>
                </span>
              </td>
              <td className={`${td} font-mono text-xs whitespace-nowrap`}>{statuses}</td>
            </tr>
          ))}
        </Table>
      </Panel>

      <Panel
        title="Demo clients"
        titleId="sandbox-clients"
        description={
          publicDemoSecret ? (
            <span className="inline-flex flex-wrap items-center gap-1">
              All three use the client_secret <code className="font-mono">{publicDemoSecret}</code>
              <CopyButton text={publicDemoSecret} label="Copy the demo client_secret" iconOnly />
            </span>
          ) : (
            <InlineCode text="All three use as client_secret the value of `SANDBOX_DEMO_SECRET` on the server." />
          )
        }
      >
        <Table caption="Demo clients" head={["client_id", "Scopes", "expires_in", "Use it to"]}>
          {DEMO_CLIENTS.map((client) => (
            <tr key={client.clientId}>
              <th scope="row" className={`${td} text-left font-normal`}>
                <CopyableValue value={client.clientId} name={`client_id ${client.clientId}`} />
              </th>
              <td className={td}>
                <span className="flex flex-wrap gap-1">
                  {client.scopes.map((scope) => (
                    <Badge key={scope} tone={scope === "read:transactions" ? "info" : "neutral"}>
                      {scope}
                    </Badge>
                  ))}
                </span>
              </td>
              <td className={`${td} font-mono tabular-nums`}>{client.expiresIn} s</td>
              <td className={`${td} text-body`}>{client.description}</td>
            </tr>
          ))}
        </Table>
      </Panel>

      <Panel
        title="Test cards"
        titleId="sandbox-cards"
        description="Any other 12 to 19 digits is an unknown card: Gift Balance Inquiry is declined card_not_found, Balance Inquiry answers 404."
      >
        <Table caption="Test cards" head={["Card number", "Behaviour", "Purses"]}>
          {TEST_CARDS.map((card) => {
            const behaviour = BEHAVIOURS[card.behaviour];
            return (
              <tr key={card.cardNumber}>
                <th scope="row" className={`${td} text-left font-normal`}>
                  <CopyableValue value={card.cardNumber} name={`card number ${card.cardNumber}`} />
                </th>
                <td className={td}>
                  <Badge tone={behaviour.tone}>{behaviour.label}</Badge>
                  <p className="mt-1 max-w-xs text-xs text-muted">
                    {card.behaviour === "slow"
                      ? `Answers after ${slowResponseSeconds} seconds.`
                      : card.description}
                  </p>
                </td>
                <td className={td}>
                  <Purses card={card} />
                </td>
              </tr>
            );
          })}
        </Table>
      </Panel>

      <Panel
        title="Fault triggers"
        titleId="sandbox-faults"
        description="Cards that make the sandbox misbehave, to see how a client copes."
      >
        <ul className="grid gap-3 md:grid-cols-2">
          {faultCards.map((card) => (
            <li key={card.cardNumber} className="rounded-lg border border-raised p-3">
              <div className="flex flex-wrap items-center gap-2">
                <CopyableValue value={card.cardNumber} name={`fault card ${card.cardNumber}`} />
                <Badge tone={BEHAVIOURS[card.behaviour].tone}>{BEHAVIOURS[card.behaviour].label}</Badge>
              </div>
              <p className="mt-2 text-sm text-body">
                <InlineCode text={faultExplanation(card, slowResponseSeconds)} />
              </p>
            </li>
          ))}
        </ul>
      </Panel>

      <Panel
        title="Try it"
        titleId="sandbox-curl"
        description={
          <InlineCode text="Request a token, then run a Gift Balance Inquiry with it: expect `201 Created` and `response_status` `approved` with `balance` `25.00`. Each run sends a new `X-Request-Id`. The code comes from the same generator as the Code panel, in the language you pick there." />
        }
      >
        <div className="space-y-4">
          <WorkedExample examples={examples} />
          <p className="text-sm text-body">
            <InlineCode
              text={`Against \`npm run sandbox\`, use \`${standaloneUrl}\` in place of \`${mountedUrl}\`. Find the transaction again with \`curl -sS "${mountedUrl}${SANDBOX_PATHS.transactionByRequestId.replace("{request_id}", "<X-Request-Id>")}" -H "Authorization: Bearer $ACCESS_TOKEN"\`.`}
            />
          </p>
          <p className="text-sm text-body">
            <a href={`${mountedUrl}/openapi.json`} className="font-medium text-accent underline">
              Import into Postman / Insomnia / Bruno
            </a>
            : their import takes this OpenAPI 3.1 document&apos;s URL,{" "}
            <InlineCode text={`\`${mountedUrl}/openapi.json\``} />.
          </p>
          <p className="text-sm text-body">
            <a
              href="/api/postman-collection.json?environment=embedded"
              download="card-services-embedded.postman_collection.json"
              className="font-medium text-accent underline"
            >
              Postman collection with the specification&apos;s checks
            </a>
            : gets and renews its token, and tests every answer; with{" "}
            <a
              href="/api/postman-environment.json?environment=embedded"
              download="card-services-embedded.postman_environment.json"
              className="font-medium text-accent underline"
            >
              its environment
            </a>{" "}
            (addresses, credentials to fill in). Run it with{" "}
            <InlineCode text="`newman run card-services-embedded.postman_collection.json --env-var client_id=demo-client --env-var client_secret=demo-secret`" />
            .
          </p>
          <StarterClientsLinks />
        </div>
      </Panel>

      <Panel
        title="Where the specification is silent"
        titleId="sandbox-choices"
        description="What this sandbox does where the specification shows nothing. A real instance may differ."
      >
        <dl className="divide-y divide-subtle">
          {SANDBOX_CHOICES.map((choice) => (
            <div
              key={choice.title}
              className="grid gap-1 py-2.5 first:pt-0 last:pb-0 md:grid-cols-[12rem_1fr] md:gap-4"
            >
              <dt className="text-sm font-medium text-fg">{choice.title}</dt>
              <dd className="text-sm text-body">
                <InlineCode text={choice.rule} />
              </dd>
            </div>
          ))}
        </dl>
      </Panel>
    </div>
  );
}
