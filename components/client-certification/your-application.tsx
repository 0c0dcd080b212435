"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { CopyButton } from "@/components/exchange/copy-button";
import { Alert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { Panel } from "@/components/ui/panel";
import {
  clientCertificationPage,
  clientEvidenceUrl,
  isUnderWay,
  useArmStep,
  useFinishClientCertification,
  useHandOverSecret,
  useStartClientCertification,
} from "@/lib/client/use-client-certification-api";
import type { ClientCertificationView } from "@/lib/shared/client-certification-contract";
import { CallLog } from "./call-log";
import { ClientCertificationList } from "./client-certification-list";
import { ClientChecks } from "./client-checks";
import { StarterClientsOffer } from "./starter-clients-offer";

/**
 * "Your application" (docs/design.md §11): start a certification (its page then opens, with the fresh secret handed
 * over in this tab's memory), and the caller's certifications, each a link to its page.
 */
export function YourApplication() {
  const router = useRouter();
  const start = useStartClientCertification();
  const handOver = useHandOverSecret();
  const begin = async () => {
    const started = await start.trigger({ environment: "embedded" });
    await handOver(started);
    router.push(clientCertificationPage(started.id));
  };
  return (
    <Panel
      title="Your application"
      description="Certify your own client application: it gets a sandbox client of its own, you start each step, and the console judges the calls it really makes."
    >
      <div className="grid min-w-0 grid-cols-1 gap-4">
        <div>
          <Button variant="primary" busy={start.isMutating} onClick={() => void begin().catch(() => {})}>
            Start certification
          </Button>
        </div>
        {start.error ? (
          <Alert tone="danger" title="Not started">
            {start.error.message}
          </Alert>
        ) : null}
        <ClientCertificationList />
      </div>
    </Panel>
  );
}

/**
 * One certification: credentials while it is under way, the steps, the checks (a failed one links to the calls
 * behind it), the live log, finish and the evidence. `secret` is there only in the tab that started it.
 */
export function ClientCertification({ view, secret }: { view: ClientCertificationView; secret?: string }) {
  const finish = useFinishClientCertification(view.id);
  const active = isUnderWay(view.status);
  const [finishedHere, setFinishedHere] = useState(false);
  // A link to one call (`#call-…`, what a check's link leaves in the address) opens on it.
  const [shown, showCalls] = useState<string[]>(() => {
    const linked = typeof window === "undefined" ? null : /^#call-(.+)$/.exec(window.location.hash);
    return linked?.[1] ? [decodeURIComponent(linked[1])] : [];
  });
  return (
    <div className="grid min-w-0 grid-cols-1 gap-6">
      {active ? <Credentials view={view} secret={secret} /> : <Verdict view={view} focus={finishedHere} />}
      <section aria-labelledby="client-steps" className="grid gap-2">
        <h3 id="client-steps" className="text-base font-semibold">
          Steps
        </h3>
        <Steps view={view} />
      </section>
      <section aria-labelledby="client-checks" className="grid gap-2">
        <h3 id="client-checks" className="text-base font-semibold">
          Checks <Badge tone={active ? "accent" : "success"}>{view.status}</Badge>
        </h3>
        <ClientChecks checks={view.checks} calls={view.exchanges} onShowCalls={showCalls} />
      </section>
      <section aria-labelledby="client-calls" className="grid min-w-0 grid-cols-1 gap-2">
        <h3 id="client-calls" className="text-base font-semibold">
          Live log ({view.exchanges.length} calls)
        </h3>
        <CallCounters view={view} />
        <CallLog calls={view.exchanges} highlighted={shown} />
      </section>
      <div className="flex flex-wrap items-center gap-3">
        {active ? (
          <Button
            variant="primary"
            busy={finish.isMutating}
            onClick={() =>
              void finish
                .trigger({})
                .then(() => setFinishedHere(true))
                .catch(() => {})
            }
          >
            Finish
          </Button>
        ) : null}
        {finish.error ? (
          <Alert tone="danger" title="Not finished">
            {finish.error.message}
          </Alert>
        ) : null}
      </div>
    </div>
  );
}

/** The headline of a finished certification: how many checks passed, and its evidence, before the details. */
function Verdict({ view, focus }: { view: ClientCertificationView; focus: boolean }) {
  const heading = useRef<HTMLElement>(null);
  // Finish is pressed at the foot of a long page: the verdict it brings is shown, not left above the fold.
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, [focus]);
  const passed = view.checks.filter((check) => check.verdict === "pass").length;
  const failed = view.checks.filter((check) => check.verdict === "fail").length;
  const total = view.checks.length;
  const all = passed === total;
  const title = `${all ? "Passed" : "Not passed"}: ${passed} of ${total}`;
  const notObserved = total - passed - failed;
  const short = [
    failed > 0 ? `${failed} failed` : null,
    notObserved > 0 ? `${notObserved} not observed` : null,
  ];
  const why = all
    ? "Every check passed. The signed evidence bundle holds the checks and every call behind them, for the API operator."
    : `${short.filter(Boolean).join(", ")}: each check below says what it saw. The evidence bundle records this result as it is.`;
  return (
    <section
      ref={heading}
      tabIndex={-1}
      aria-labelledby="client-verdict"
      data-testid="client-verdict"
      className="scroll-mt-32 outline-none"
    >
      <Alert
        tone={all ? "success" : failed > 0 ? "danger" : "warning"}
        title={
          <span id="client-verdict" className="text-lg">
            {title}
            {view.status === "expired" ? " (expired before Finish)" : ""}
          </span>
        }
        action={
          <a className={buttonClasses("primary", "md")} href={clientEvidenceUrl(view.id)} download>
            Download evidence
          </a>
        }
      >
        <p>{why}</p>
      </Alert>
    </section>
  );
}

/** Where the secret stands when this tab did not start the certification (a reload, a shared link). */
const SECRET_NOT_HERE = "<the secret shown when the certification started>";

function Credentials({ view, secret }: { view: ClientCertificationView; secret?: string }) {
  const snippet = envSnippet(view, secret ?? SECRET_NOT_HERE);
  return (
    <section aria-labelledby="client-credentials" className="grid min-w-0 grid-cols-1 gap-2">
      <h3 id="client-credentials" className="text-base font-semibold">
        Credentials for your application
      </h3>
      {secret ? (
        <Alert tone="warning" title="Shown once">
          The secret is shown this once. It is a sandbox credential that dies with this certification.
        </Alert>
      ) : (
        <Alert tone="info" title="The secret is not shown again">
          It was shown once, when this certification started; the console keeps only its hash. Start a new
          certification if it is lost.
        </Alert>
      )}
      <pre
        aria-label=".env for your application"
        tabIndex={0}
        className="overflow-x-auto rounded-md bg-inset p-3 font-mono text-xs break-all whitespace-pre-wrap"
      >
        {snippet}
      </pre>
      <div>
        <CopyButton text={snippet} label="Copy .env" />
      </div>
      <StarterClientsOffer />
    </section>
  );
}

type StepStatus = ClientCertificationView["steps"][number]["status"];

const STEP_TONES: Record<StepStatus, BadgeTone> = {
  pending: "neutral",
  armed: "accent",
  done: "success",
  ended: "warning",
};

const STEP_MEANING: Record<StepStatus, string> = {
  pending: "not started yet",
  armed: "waiting for your application's calls",
  done: "the calls it asks for were seen",
  ended: "ended before the calls it asks for were seen",
};

function Steps({ view }: { view: ClientCertificationView }) {
  const arm = useArmStep(view.id);
  const active = isUnderWay(view.status);
  return (
    <ol className="grid min-w-0 grid-cols-1 gap-2">
      {view.steps.map((step, index) => (
        <li key={step.id} data-step={step.id} className="rounded-lg border border-raised p-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="font-medium">
              {index + 1}. {step.title} <Badge tone={STEP_TONES[step.status]}>{step.status}</Badge>{" "}
              <span className="text-xs font-normal text-muted">{STEP_MEANING[step.status]}</span>
            </span>
            {/* A finished certification takes no more steps: no buttons that cannot be pressed. */}
            {active ? (
              <Button
                size="sm"
                disabled={step.status === "armed"}
                busy={arm.isMutating}
                onClick={() => void arm.trigger(step.id).catch(() => {})}
                aria-label={`Start step ${step.title}`}
              >
                Start step
              </Button>
            ) : null}
          </div>
          <p className="mt-1 text-sm text-body">{step.instructions}</p>
        </li>
      ))}
      {arm.error ? (
        <Alert tone="danger" title="Step not started">
          {arm.error.message}
        </Alert>
      ) : null}
    </ol>
  );
}

/** What the log did not keep: calls past its bound, and token requests that did not authenticate. */
function CallCounters({ view }: { view: ClientCertificationView }) {
  const { dropped, max_kept, refused_token_requests, last_refused_at } = view.calls;
  if (dropped === 0 && refused_token_requests === 0) return null;
  return (
    <ul className="grid gap-1 text-sm text-body" aria-label="Calls not kept">
      {dropped > 0 ? (
        <li data-counter="dropped">
          {dropped} more {dropped === 1 ? "call was" : "calls were"} counted but not kept: the log keeps the
          first {max_kept.toLocaleString("en")} calls.
        </li>
      ) : null}
      {refused_token_requests > 0 ? (
        <li data-counter="refused">
          {refused_token_requests} token {refused_token_requests === 1 ? "request" : "requests"} with this
          client_id refused (unknown or wrong secret), the last at {last_refused_at?.slice(11, 19) ?? "?"}{" "}
          UTC: counted, not kept or judged.
        </li>
      ) : null}
    </ul>
  );
}

/** The .env lines an application reads its configuration from. */
function envSnippet(view: { auth_url: string; base_url: string; client_id: string }, secret: string): string {
  return [
    `CARD_API_AUTH_URL=${view.auth_url}`,
    `CARD_API_BASE_URL=${view.base_url}`,
    `CARD_API_CLIENT_ID=${view.client_id}`,
    `CARD_API_CLIENT_SECRET=${secret}`,
    "",
  ].join("\n");
}
