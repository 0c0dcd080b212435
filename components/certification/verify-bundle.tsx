"use client";

import { useId, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/panel";
import { useVerifyBundle } from "@/lib/client/use-certification-api";

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
          <label
            htmlFor={inputId}
            className="grid gap-1 text-sm font-medium text-slate-800 dark:text-slate-200"
          >
            Evidence bundle (.zip)
            <input
              id={inputId}
              type="file"
              accept=".zip,application/zip"
              onChange={(event) => {
                reset();
                setFile(event.target.files?.[0] ?? null);
              }}
              className="text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium dark:file:border-slate-600 dark:file:bg-slate-900 dark:file:text-slate-100"
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
        {data ? (
          <Alert
            tone={data.ok ? "success" : "danger"}
            role="status"
            className="[overflow-wrap:anywhere]"
            title={data.ok ? "Intact: the bundle verifies" : "Not intact: the bundle does not verify"}
          >
            {data.run?.id ? (
              <p>
                Run <span className="font-mono text-xs">{data.run.id}</span> on {data.run.environment ?? "?"}{" "}
                by {data.run.operator ?? "?"}
                {data.run.summary
                  ? ` — ${data.run.summary.pass ?? 0} pass, ${data.run.summary.fail ?? 0} fail, ${data.run.summary.observed ?? 0} observed, ${data.run.summary.not_applicable ?? 0} not applicable`
                  : ""}
              </p>
            ) : null}
            {data.ok ? (
              <p className="mt-1">
                {data.signed_by_this_console
                  ? "Signed with this console's key (GET /api/certification/public-key)."
                  : "Signed with the key inside the bundle, which is not this console's key: compare its kid with the key you trust."}
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
        ) : null}
      </form>
    </Panel>
  );
}
