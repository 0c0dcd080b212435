import type { AlertTone } from "@/components/ui/alert";
import type { LookupOutcome } from "@/lib/shared/support-contract";

/** The agent-facing title and tone of each lookup outcome; the server's message gives the detail. */
export const OUTCOME_TITLES: Record<LookupOutcome, { title: string; tone: AlertTone }> = {
  found: { title: "Balances", tone: "success" },
  not_found: { title: "Unknown card", tone: "warning" },
  rate_limited: { title: "Card service busy", tone: "warning" },
  timeout: { title: "No answer in time", tone: "danger" },
  unreachable: { title: "Card service unreachable", tone: "danger" },
  upstream_error: { title: "Card service error", tone: "danger" },
};

/** Messages for the console's own refusals (the lookup did not reach the card service). */
export function errorTitle(code: string): string {
  switch (code) {
    case "no_credentials":
      return "No client credentials";
    case "forbidden_by_role":
      return "Not allowed for your role";
    case "not_signed_in":
      return "Signed out";
    case "rate_limited":
      return "Too many lookups";
    case "validation_failed":
      return "Check the card number";
    case "network_error":
      return "The console could not be reached";
    default:
      return "The lookup failed";
  }
}

export const dotsLast4 = (last4: string) => `•••• ${last4}`;
