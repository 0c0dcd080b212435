"use client";

import Link from "next/link";
import type { Ref } from "react";
import type { InquiryOperation } from "@/lib/client/api-keys";
import type { EnvironmentName } from "@/lib/shared/contracts";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { Field } from "@/components/ui/field";
import { CardNumberField, LocationIdField } from "@/components/exchange/card-fields";
import { TestCardsChoice } from "./test-cards-choice";
import type { InquiryFieldErrors, InquiryFormValues } from "./use-inquiry-form";

const fieldProps = { autoComplete: "off", spellCheck: false, mono: true } as const;

/** entry_mode and pin_mode (API specification §2.3): free text, with the one value the specification shows offered. */
const MODE_FIELDS = [
  { key: "entryMode", id: "entry-mode", label: "Entry mode" },
  { key: "pinMode", id: "pin-mode", label: "PIN mode" },
] as const;

/**
 * The sandbox reference's test cards, for what each one does in full. Their numbers stay on that page, the one page
 * allowed to show full card numbers (they are the sandbox's published fixtures).
 */
function TestCardsLink() {
  return (
    <p className="text-xs text-muted">
      More on{" "}
      <Link href="/sandbox#sandbox-cards" className="font-medium text-accent underline">
        The sandbox&apos;s test cards
      </Link>
      , and what each one does.
    </p>
  );
}

/** The inquiry's inputs (API specification §2.3 and the X-Request-Id of API specification §4.3): card, location, entry and PIN mode. */
export function InquiryFields({
  operation,
  values,
  errors,
  onChange,
  cardInput,
  environment,
  onTestCard,
  onCardFilling,
}: {
  operation: InquiryOperation;
  values: InquiryFormValues;
  errors: InquiryFieldErrors;
  onChange: (key: keyof InquiryFormValues, value: string) => void;
  cardInput: Ref<HTMLInputElement>;
  /** The session's: the test cards offered are this environment's (none while unknown). */
  environment?: EnvironmentName;
  /** A test card's number, fetched, for the card field. */
  onTestCard: (cardNumber: string) => void;
  /** A test card's number is being fetched into the card field (true), or is there (false). */
  onCardFilling: (filling: boolean) => void;
}) {
  const change = (key: keyof InquiryFormValues) => (event: { target: { value: string } }) =>
    onChange(key, event.target.value);
  return (
    <>
      <CardNumberField
        ref={cardInput}
        id="card-number"
        hint="12 to 19 digits. Shown masked everywhere after this field."
        value={values.cardNumber}
        onChange={change("cardNumber")}
        error={errors.cardNumber}
      />
      {environment ? (
        <TestCardsChoice
          environment={environment}
          cardNumber={values.cardNumber}
          onChoose={onTestCard}
          onFilling={onCardFilling}
        />
      ) : null}
      {environment === "embedded" ? <TestCardsLink /> : null}
      <LocationIdField
        id="location-id"
        labelAside={<code className="font-mono text-xs text-muted">originator.location_id</code>}
        hint="Remembered in this browser."
        value={values.locationId}
        onChange={change("locationId")}
        error={errors.locationId}
      />
      <div className="grid grid-cols-2 gap-3">
        {MODE_FIELDS.map(({ key, id, label }) => (
          <Field
            key={key}
            id={id}
            label={label}
            value={values[key]}
            onChange={change(key)}
            error={errors[key]}
            list={`${id}-values`}
            {...fieldProps}
          />
        ))}
        <datalist id="entry-mode-values">
          <option value="keyed" />
        </datalist>
        <datalist id="pin-mode-values">
          <option value="none" />
        </datalist>
      </div>
      <div className={cx(operation !== "gift_balance_inquiry" && "hidden")}>
        <Field
          id="request-id"
          label="Request Id"
          labelAside={<span className="text-xs text-muted">optional · X-Request-Id</span>}
          hint="Unique per Gift Balance Inquiry (API specification §8). Empty: a fresh UUID per press of Run, kept for a retry."
          value={values.requestId}
          onChange={change("requestId")}
          error={errors.requestId}
          {...fieldProps}
          addon={
            <Button
              onClick={() => onChange("requestId", crypto.randomUUID())}
              aria-label="New Request Id"
              title="Generate a new Request Id"
            >
              New
            </Button>
          }
        />
      </div>
    </>
  );
}
