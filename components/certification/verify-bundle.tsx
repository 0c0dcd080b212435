"use client";

import { useId, useState, type FormEvent } from "react";
import { Alert, type AlertTone } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/panel";
import { useVerifyBundle } from "@/lib/client/use-certification-api";
import type { VerifyResponse } from "@/lib/shared/certification-api";

/** Upload a bundle: the server checks every file's SHA-256, SHA256SUMS and the EdDSA signature. */
export function VerifyBundle() {
  const inputId = useId();
  const titleId = useId();
  const [file, setFile] = useState<File | null>(null);
  const { trigger, data, error, isMutating, reset } = useVerifyBundle();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (file) void trigger(file).catch(() => undefined);
  }

  return (
    <Panel
      className="min-w-0"
      title="Verify a bundle"
      titleId={titleId}
      description="Check an evidence bundle you received or kept: every file's SHA-256, SHA256SUMS and the EdDSA signature over the manifest (as npm run verify-evidence does)."
    >
      <form onSubmit={submit} className="grid grid-cols-[minmax(0,1fr)] gap-3">
        <div className="flex flex-wrap items-end gap-3">
          <label htmlFor={inputId} className="grid gap-1 text-sm font-medium text-fg">
            Evidence bundle (.zip)
            <input
              id={inputId}
              type="file"
              accept=".zip,application/zip"
              onChange={(event) => {
                reset();
                setFile(event.target.files?.[0] ?? null);
              }}
              className="text-sm file:mr-3 file:rounded-md file:border file:border-field file:bg-panel file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-fg"
            />
          </label>
          <Button type="submit" disabled={!file} busy={isMutating}>
            Verify
          </Button>
        </div>
        {error ? (
          <Alert tone="danger" title="The bundle could not be checked" role="alert">
            {error.message}
          </Alert>
        ) : null}
        {data ? <VerifyResult data={data} /> : null}
      </form>
    </Panel>
  );
}

/** Green only for a signer this console knows: an intact bundle under an unknown key proves nothing about it. */
function verdictOf(data: VerifyResponse): { tone: AlertTone; title: string; signer?: string } {
  if (!data.ok) return { tone: "danger", title: "Not intact: the bundle does not verify" };
  const signer = data.signer;
  if (signer?.kind === "this_console") {
    return {
      tone: "success",
      title: "Intact — signed by this console",
      signer: "Signed with this console's key (GET /api/certification/public-key).",
    };
  }
  if (signer?.kind === "trusted") {
    return {
      tone: "success",
      title: `Intact — signed by trusted key ${signer.name ?? signer.thumbprint}`,
      signer: "A key EVIDENCE_TRUSTED_KEYS names as trusted.",
    };
  }
  return {
    tone: "warning",
    title: "Intact, but signed by an unknown key — not proof from this console",
    signer:
      "Nothing was changed since this key signed it, but anyone can sign an edited bundle with a key of their own. " +
      "Trust it only if you know this key: compare its thumbprint with the public key of the console that should " +
      "have signed it, and name that key in EVIDENCE_TRUSTED_KEYS to trust it here.",
  };
}

function VerifyResult({ data }: { data: VerifyResponse }) {
  const verdict = verdictOf(data);
  return (
    <Alert tone={verdict.tone} role="status" className="[overflow-wrap:anywhere]" title={verdict.title}>
      {data.run?.id ? (
        <p>
          Run <span className="font-mono text-xs">{data.run.id}</span> on {data.run.environment ?? "?"} by{" "}
          {data.run.operator ?? "?"}
          {data.run.summary
            ? ` — ${data.run.summary.pass ?? 0} pass, ${data.run.summary.fail ?? 0} fail, ${data.run.summary.observed ?? 0} observed, ${data.run.summary.not_applicable ?? 0} not applicable`
            : ""}
        </p>
      ) : null}
      {verdict.signer ? <p className="mt-1">{verdict.signer}</p> : null}
      {data.signer ? (
        <p className="mt-1">
          Key thumbprint: <span className="font-mono text-xs">{data.signer.thumbprint}</span>
        </p>
      ) : null}
      {data.problems.length > 0 ? (
        <ul className="mt-1 list-disc pl-5">
          {data.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
      {data.checked.length > 0 ? (
        <p className="mt-1 text-xs opacity-80">Checked: {data.checked.join("; ")}.</p>
      ) : null}
    </Alert>
  );
}
