import { useEffect } from "react";
import { INQUIRY_OPERATIONS, operationLabel, type InquiryOperation } from "@/lib/shared/operations";
import { environmentLabel } from "@/lib/client/environments";
import { useSession } from "@/lib/client/use-session-api";
import { allowsIn, useAllows } from "@/components/team/use-me";
import { cx } from "@/components/ui/class-names";

/** What /inquiry says of each operation beside the registry's label: its tag and spec §4.5 reminder. */
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

/** The two operations as a radio group, each with its one-line reminder of spec §4.5. */
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
      <legend className="mb-1.5 text-sm font-medium text-slate-800 dark:text-slate-200">Operation</legend>
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
                  ? "border-indigo-600 bg-indigo-50/70 ring-1 ring-indigo-600 dark:border-indigo-400 dark:bg-indigo-400/10 dark:ring-indigo-400"
                  : "border-slate-300 hover:border-slate-400 dark:border-slate-700 dark:hover:border-slate-500",
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
                <span className="font-medium text-slate-900 dark:text-slate-100">{choice.label}</span>
                <span className="ml-auto rounded-full bg-slate-100 px-2 py-0.5 text-[0.7rem] text-slate-700 dark:bg-slate-800 dark:text-slate-300">
                  {choice.tag}
                </span>
              </span>
              <span
                id={`${operation}-reminder`}
                className="pl-6 text-xs leading-snug text-slate-600 dark:text-slate-400"
              >
                {choice.reminder}
              </span>
            </label>
          );
        })}
      </div>
      {environment && offered.length < INQUIRY_OPERATIONS.length ? (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400" data-testid="operation-not-offered">
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
