import { Field, type FieldProps } from "@/components/ui/field";

type PresetFieldProps = Omit<FieldProps, "label" | "inputMode" | "autoComplete" | "spellCheck" | "mono"> & {
  label?: FieldProps["label"];
};

/**
 * The card number as every form takes it: digits in a monospaced field, never autocompleted or spell-checked
 * (the browser must not keep it). The rule it is checked with is lib/shared/card-number.ts.
 */
export function CardNumberField({ label = "Card number", ...props }: PresetFieldProps) {
  return <Field label={label} inputMode="numeric" autoComplete="off" spellCheck={false} mono {...props} />;
}

/** `originator.location_id` (API specification §2.3) as every form takes it. */
export function LocationIdField({ label = "Location ID", ...props }: PresetFieldProps) {
  return <Field label={label} autoComplete="off" spellCheck={false} mono {...props} />;
}
