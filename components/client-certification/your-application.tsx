"use client";

import { useState } from "react";
import { CopyButton } from "@/components/exchange/copy-button";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/panel";
import {
  clientEvidenceUrl,
  isUnderWay,
  useArmStep,
  useClientCertification,
  useFinishClientCertification,
  useStartClientCertification,
} from "@/lib/client/use-client-certification-api";
import {
  envSnippet,
  type ClientCertificationView,
  type StartedClientCertification,
} from "@/lib/shared/client-certification-contract";
import { CallLog } from "./call-log";
import { ClientChecks } from "./client-checks";
import { StarterClientsOffer } from "./starter-clients-offer";

/**
 * "Your application" (DESIGN.md §11): start a certification, hand the application its credentials, arm each
 * step, watch its calls and the checks live, finish and download the evidence. The secret lives only in this
 * component's state: it is shown once, as the server sent it.
 */
export function YourApplication() {
  const [started, setStarted] = useState<StartedClientCertification | null>(null);
  const start = useStartClientCertification();
  return (
    <Panel
      title="Your application"
      description="Certify your own client application: it gets a sandbox client of its own, you start each step, and the console judges the calls it really makes."
    >
      {started ? (
        <Certification started={started} />
      ) : (
        <div className="grid gap-3">
          <div>
            <Button
              variant="primary"
              busy={start.isMutating}
              onClick={() => void start.trigger({ environment: "embedded" }).then(setStarted, () => {})}
            >
              Start certification
            </Button>
          </div>
          {start.error ? (
            <Alert tone="danger" title="Not started">
              {start.error.message}
            </Alert>
          ) : null}
        </div>
      )}
    </Panel>
  );
}

function Certification({ started }: { started: StartedClientCertification }) {
  const { data } = useClientCertification(started.id);
  const view: ClientCertificationView = data ?? started;
  const finish = useFinishClientCertification(started.id);
  const active = isUnderWay(view.status);
  return (
    <div className="grid min-w-0 grid-cols-1 gap-6">
      <Credentials started={started} />
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
        <ClientChecks checks={view.checks} />
      </section>
      <section aria-labelledby="client-calls" className="grid min-w-0 grid-cols-1 gap-2">
        <h3 id="client-calls" className="text-base font-semibold">
          Live log ({view.exchanges.length} calls)
        </h3>
        <CallCounters view={view} />
        <CallLog calls={view.exchanges} />
      </section>
      <div className="flex flex-wrap items-center gap-3">
        {active ? (
          <Button
            variant="primary"
            busy={finish.isMutating}
            onClick={() => void finish.trigger({}).catch(() => {})}
          >
            Finish
          </Button>
        ) : (
          <a
            className="font-medium text-sky-800 underline dark:text-sky-300"
            href={clientEvidenceUrl(view.id)}
            download
          >
            Download evidence
          </a>
        )}
        {finish.error ? (
          <Alert tone="danger" title="Not finished">
            {finish.error.message}
          </Alert>
        ) : null}
      </div>
    </div>
  );
}

function Credentials({ started }: { started: StartedClientCertification }) {
  const snippet = envSnippet(started, started.client_secret);
  return (
    <section aria-labelledby="client-credentials" className="grid min-w-0 grid-cols-1 gap-2">
      <h3 id="client-credentials" className="text-base font-semibold">
        Credentials for your application
      </h3>
      <Alert tone="warning" title="Shown once">
        The secret is shown this once. It is a sandbox credential that dies with this certification.
      </Alert>
      <pre
        aria-label=".env for your application"
        tabIndex={0}
        className="overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs break-all whitespace-pre-wrap dark:bg-slate-900"
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

function Steps({ view }: { view: ClientCertificationView }) {
  const arm = useArmStep(view.id);
  const active = isUnderWay(view.status);
  return (
    <ol className="grid min-w-0 grid-cols-1 gap-2">
      {view.steps.map((step, index) => (
        <li
          key={step.id}
          data-step={step.id}
          className="rounded-lg border border-slate-200 p-3 dark:border-slate-700"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="font-medium">
              {index + 1}. {step.title}{" "}
              <Badge tone={step.status === "armed" ? "accent" : "neutral"}>{step.status}</Badge>
            </span>
            <Button
              size="sm"
              disabled={!active || step.status === "armed"}
              busy={arm.isMutating}
              onClick={() => void arm.trigger(step.id).catch(() => {})}
              aria-label={`Start step ${step.title}`}
            >
              Start step
            </Button>
          </div>
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{step.instructions}</p>
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
    <ul className="grid gap-1 text-sm text-slate-700 dark:text-slate-300" aria-label="Calls not kept">
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
