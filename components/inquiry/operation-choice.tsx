import { useEffect } from "react";
import { INQUIRY_OPERATIONS, operationLabel, type InquiryOperation } from "@/lib/shared/operations";
import { environmentLabel } from "@/lib/client/environments";
import { useSession } from "@/lib/client/use-session-api";
import { allowsIn, useAllows } from "@/components/team/use-me";
import { cx } from "@/components/ui/class-names";

/** What /inquiry says of each operation beside the registry's label: its tag and API specification §4.5 reminder. */
const CHOICE_NOTES: Record<InquiryOperation, { tag: string; reminder: string }> = {
  gift_balance_inquiry: {
    tag: "recommended",
    reminder: "Records a transaction in the card's history (201, approved or declined); Gift purse only.",
  },
  balance_inquiry: {
    tag: "read-only",
    reminder: "Records nothing (200, no transaction_id, no Request Id lookup); all eight purses.",
  },
};

export const OPERATION_CHOICES = Object.fromEntries(
  INQUIRY_OPERATIONS.map((operation) => {
    const label = operationLabel(operation);
    return [operation, { label, run: `Run ${label}`, ...CHOICE_NOTES[operation] }];
  }),
) as Record<InquiryOperation, { label: string; tag: string; reminder: string; run: string }>;

/** The two operations as a radio group, each with its one-line reminder of API specification §4.5. */
export function OperationChoice({
  value,
  onChange,
}: {
  value: InquiryOperation;
  onChange: (operation: InquiryOperation) => void;
}) {
  // Operations the user's role may not run in the session's environment are not offered (the server refuses them).
  const { data: session } = useSession();
  const allows = useAllows();
  const environment = session?.environment;
  const offered = INQUIRY_OPERATIONS.filter(
    (operation) => !environment || !allows || allowsIn(allows, operation, environment),
  );
  const fallback = offered[0];
  useEffect(() => {
    if (fallback && !offered.includes(value)) onChange(fallback);
  }, [fallback, offered, value, onChange]);
  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium text-fg">Operation</legend>
      <div className="grid gap-2">
        {offered.map((operation) => {
          const choice = OPERATION_CHOICES[operation];
          const checked = value === operation;
          return (
            <label
              key={operation}
              className={cx(
                "relative flex cursor-pointer flex-col gap-0.5 rounded-lg border px-3 py-2 text-sm",
                "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-500",
                checked
                  ? "border-accent bg-accent-soft ring-1 ring-accent-strong"
                  : "border-field hover:border-strong",
              )}
            >
              <span className="flex items-center gap-2">
                <input
                  type="radio"
                  name="operation"
                  value={operation}
                  checked={checked}
                  onChange={() => onChange(operation)}
                  className="size-4 accent-indigo-600"
                  aria-describedby={`${operation}-reminder`}
                />
                <span className="font-medium text-fg">{choice.label}</span>
                <span className="ml-auto rounded-full bg-raised px-2 py-0.5 text-[0.7rem] text-body">
                  {choice.tag}
                </span>
              </span>
              <span id={`${operation}-reminder`} className="pl-6 text-xs leading-snug text-muted">
                {choice.reminder}
              </span>
            </label>
          );
        })}
      </div>
      {environment && offered.length < INQUIRY_OPERATIONS.length ? (
        <p className="mt-2 text-xs text-muted" data-testid="operation-not-offered">
          Your role may not run{" "}
          {INQUIRY_OPERATIONS.filter((operation) => !offered.includes(operation))
            .map((operation) => OPERATION_CHOICES[operation].label)
            .join(" or ")}{" "}
          in {environmentLabel(environment)}.
        </p>
      ) : null}
    </fieldset>
  );
}
