"use client";

import { LOCATION_ID_MAX_LENGTH } from "@/lib/shared/sandbox-demo";
import { useRef, useState } from "react";
import { CARD_NUMBER_RULE, isCardNumber, normalizeCardNumber } from "@/lib/shared/card-number";
import type { GiftBalanceInquiryInput } from "@/lib/shared/contracts";
import { errorDetails, type ErrorWithDetails } from "@/lib/shared/error-details";
import type { InquiryOperation } from "@/lib/client/api-keys";
import { newRequestId } from "@/lib/client/request-id";
import { useRememberedLocation } from "@/lib/client/use-remembered-location";

/** What the inquiry form holds, as typed. */
export interface InquiryFormValues {
  cardNumber: string;
  locationId: string;
  entryMode: string;
  pinMode: string;
  requestId: string;
}

export type InquiryFieldErrors = Partial<Record<keyof InquiryFormValues, string>>;

/** One press of Run: its inputs, and for a Gift Balance Inquiry the Request Id made for it, once. */
export interface InquirySubmission {
  operation: InquiryOperation;
  input: GiftBalanceInquiryInput;
  /** The number as typed, kept in memory for "include full card number"; never stored. */
  typedCard: string;
}

const PRINTABLE = /^[\x20-\x7E]+$/;

/** The rules of the console's input schema (lib/shared/contracts.ts), checked in the browser without zod. */
export function validateInquiry(values: InquiryFormValues, operation: InquiryOperation): InquiryFieldErrors {
  const errors: InquiryFieldErrors = {};
  const card = normalizeCardNumber(values.cardNumber);
  if (!card) errors.cardNumber = "Enter a card number.";
  else if (!isCardNumber(card)) errors.cardNumber = `A card number is ${CARD_NUMBER_RULE}.`;
  const printable = (
    key: Exclude<keyof InquiryFormValues, "cardNumber">,
    label: string,
    max: number,
    required: boolean,
  ) => {
    const value = values[key].trim();
    if (!value) {
      if (required) errors[key] = `Enter ${label}.`;
    } else if (!PRINTABLE.test(value) || value.length > max) {
      errors[key] = `Printable characters only, at most ${max}.`;
    }
  };
  printable("locationId", "a location_id", LOCATION_ID_MAX_LENGTH, true);
  printable("entryMode", "an entry_mode", 32, true);
  printable("pinMode", "a pin_mode", 32, true);
  if (operation === "gift_balance_inquiry") {
    printable("requestId", "a Request Id", 128, false);
    // The sandbox refuses one with a space inside (400): flagged here rather than after a call.
    if (!errors.requestId && /\s/.test(values.requestId.trim())) {
      errors.requestId = "No spaces: printable characters only, at most 128.";
    }
  }
  return errors;
}

/** The API's field names (validation_failed details) → the form's fields. */
const FIELD_OF: Record<string, keyof InquiryFormValues> = {
  card_number: "cardNumber",
  location_id: "locationId",
  entry_mode: "entryMode",
  pin_mode: "pinMode",
  request_id: "requestId",
};

/** The first message per form field of a 400 `validation_failed`; empty for any other error. */
export function fieldErrorsOf(error: ErrorWithDetails): InquiryFieldErrors {
  const errors: InquiryFieldErrors = {};
  for (const [name, messages] of Object.entries(errorDetails(error, "validation_failed")?.fields ?? {})) {
    const field = FIELD_OF[name];
    if (field && messages[0]) errors[field] = messages[0];
  }
  return errors;
}

/**
 * The inquiry form's state: its values (the location remembered in this browser until edited, else
 * `defaultLocation`), its field errors from the browser's check or the server's, and the submission a valid
 * form makes.
 */
export function useInquiryForm(defaultLocation = "") {
  const [values, setValues] = useState({
    cardNumber: "",
    entryMode: "keyed",
    pinMode: "none",
    requestId: "",
  });
  const [locationId, setLocationId] = useRememberedLocation(defaultLocation);
  const [errors, setErrors] = useState<InquiryFieldErrors>({});
  // A test card's number is on its way to the card field: a run waits for it rather than send the old one.
  const [cardFilling, setCardFilling] = useState(false);
  const cardInput = useRef<HTMLInputElement>(null);
  const current: InquiryFormValues = { ...values, locationId };

  function setValue(key: keyof InquiryFormValues, value: string) {
    if (key === "locationId") setLocationId(value);
    else setValues((current) => ({ ...current, [key]: value }));
  }

  /**
   * Checks the form; a submission when it is valid, else null with the errors shown and the card focused.
   * `overrides`: values set in this same event, which this render's `values` do not hold yet.
   */
  function submission(
    operation: InquiryOperation,
    overrides: Partial<InquiryFormValues> = {},
  ): InquirySubmission | null {
    const all = { ...current, ...overrides };
    const found = validateInquiry(all, operation);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      if (found.cardNumber) cardInput.current?.focus();
      return null;
    }
    const typedCard = normalizeCardNumber(all.cardNumber);
    const input: GiftBalanceInquiryInput = {
      card_number: typedCard,
      location_id: all.locationId.trim(),
      entry_mode: all.entryMode.trim(),
      pin_mode: all.pinMode.trim(),
      // Made here, once per submission: a retry of this submission sends the same id.
      ...(operation === "gift_balance_inquiry" ? { request_id: all.requestId.trim() || newRequestId() } : {}),
    };
    return { operation, input, typedCard };
  }

  return {
    values: current,
    errors,
    cardFilling,
    setCardFilling,
    cardInput,
    setValue,
    submission,
    /** Shows the server's field messages of a `validation_failed` answer. */
    showServerErrors: (error: ErrorWithDetails) => {
      if (error.code === "validation_failed") setErrors(fieldErrorsOf(error));
    },
  };
}
