import Link from "next/link";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { statusLine } from "@/lib/client/http-status";
import { explainExchange } from "@/lib/client/status-explanations";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";

/** For an error status (or an unreadable body): what it means, quoting API specification §7 where it applies, and what next. */
export function StatusExplanation({ exchange }: { exchange: ExchangeRecord }) {
  const explanation = explainExchange(exchange);
  if (!explanation) return null;
  const { status } = exchange.response;
  const tone = status >= 500 || status === 401 || status === 403 || status === 400 ? "danger" : "warning";
  return (
    <Alert
      tone={tone}
      title={`${statusLine(status)}${exchange.response.body_is_text ? " · body is not JSON" : ""}`}
      action={
        explanation.action ? (
          <Link href={explanation.action.href} className={buttonClasses("secondary", "sm")}>
            {explanation.action.label}
          </Link>
        ) : null
      }
    >
      <p>
        {explanation.source === "API specification §7" ? (
          <>
            <span className="font-medium">API specification §7: </span>
            <q>{explanation.meaning}</q>
          </>
        ) : (
          explanation.meaning
        )}
      </p>
      <p>
        <span className="font-medium">What to do: </span>
        {explanation.next}
      </p>
    </Alert>
  );
}
