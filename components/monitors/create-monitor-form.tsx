"use client";

import { useId, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CheckboxField } from "@/components/ui/checkbox-field";
import { Field } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { SelectField } from "@/components/ui/select-field";
import { environmentLabel } from "@/lib/client/environments";
import { useRuns } from "@/lib/client/use-certification-api";
import { useCreateMonitor } from "@/lib/client/use-monitors-api";
import type { EnvironmentName } from "@/lib/shared/contracts";
import { MAX_ALERT_AFTER_FAILURES, MAX_EVERY_MINUTES } from "@/lib/shared/monitor-rules";

/** "BI-01, gbi-02" → ["BI-01", "GBI-02"]; empty: every case. */
function parseCaseList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((item) => item.trim().toUpperCase())
    .filter(Boolean);
}

/** Create a monitor (tester, admin): its first run starts at once. */
export function CreateMonitorForm({ admin }: { admin: boolean }) {
  const id = useId();
  const { data: runs } = useRuns();
  const certifiable = (runs?.environments ?? []).filter((item) => item.certifiable);
  const { trigger, isMutating, error, reset } = useCreateMonitor();
  const [name, setName] = useState("");
  const [chosen, setEnvironment] = useState<EnvironmentName | "">("");
  const [every, setEvery] = useState("60");
  const [alertAfter, setAlertAfter] = useState("1");
  const [cases, setCases] = useState("");
  const [gift, setGift] = useState(false);
  const environment = chosen || certifiable[0]?.name || "embedded";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    reset();
    const caseIds = parseCaseList(cases);
    void trigger({
      name,
      environment,
      every_minutes: Number(every),
      alert_after_failures: Number(alertAfter),
      ...(caseIds.length > 0 ? { cases: caseIds } : {}),
      ...(admin && environment === "production" && gift ? { allow_production_gift: true } : {}),
    })
      .then(() => setName(""))
      .catch(() => undefined);
  };

  return (
    <Panel
      title="New monitor"
      description="Runs the certification cases on a schedule; the first run starts at once."
    >
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2" aria-label="New monitor">
        <Field
          id={`${id}-name`}
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={80}
        />
        <SelectField
          id={`${id}-env`}
          label="Environment"
          value={environment}
          onChange={(value) => setEnvironment(value as EnvironmentName)}
        >
          {certifiable.map((item) => (
            <option key={item.name} value={item.name}>
              {environmentLabel(item.name)}
            </option>
          ))}
        </SelectField>
        <Field
          id={`${id}-every`}
          label="Every (minutes)"
          type="number"
          min={1}
          max={MAX_EVERY_MINUTES}
          value={every}
          onChange={(e) => setEvery(e.target.value)}
          required
        />
        <Field
          id={`${id}-alert-after`}
          label="Alert after (failing runs in a row)"
          hint="2 or more: a case that fails now and then pages nobody."
          type="number"
          min={1}
          max={MAX_ALERT_AFTER_FAILURES}
          value={alertAfter}
          onChange={(e) => setAlertAfter(e.target.value)}
          required
        />
        <Field
          id={`${id}-cases`}
          label="Cases"
          hint="Case ids, e.g. BI-01, GBI-01; empty runs every case."
          value={cases}
          onChange={(e) => setCases(e.target.value)}
          mono
        />
        {admin && environment === "production" ? (
          <div className="sm:col-span-2">
            <CheckboxField id={`${id}-gift`} checked={gift} onChange={setGift}>
              Allow Gift Balance Inquiry in production (records real transactions)
            </CheckboxField>
          </div>
        ) : null}
        <div className="sm:col-span-2">
          <Button
            type="submit"
            variant="primary"
            busy={isMutating}
            disabled={isMutating || certifiable.length === 0}
          >
            Create monitor
          </Button>
        </div>
        {error ? (
          <Alert tone="danger" title="The monitor was not created" role="alert" className="sm:col-span-2">
            {error.message}
          </Alert>
        ) : null}
      </form>
    </Panel>
  );
}
