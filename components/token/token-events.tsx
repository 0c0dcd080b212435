import type { TokenEventType } from "@/lib/shared/contracts";
import { operationLabel } from "@/lib/shared/operations";
import type { RecordedTokenEvent } from "@/lib/client/use-history";
import { Badge, type BadgeTone } from "@/components/ui/badge";

export const TOKEN_EVENT_LABELS: Record<TokenEventType, { label: string; tone: BadgeTone; why: string }> = {
  acquired: { label: "Acquired", tone: "info", why: "No token in the session: a first one was requested." },
  renewed_before_expiry: {
    label: "Renewed before expiry",
    tone: "success",
    why: "The token was about to expire, so a new one was fetched first (API specification §5.8).",
  },
  renewed_after_401: {
    label: "Renewed after a 401",
    tone: "warning",
    why: "The upstream answered 401; a new token was fetched and the call retried once (API specification §5.8).",
  },
  requested: {
    label: "Requested now",
    tone: "neutral",
    why: "Requested on this page (Request token now), not by a call.",
  },
};

export function TokenEventList({ events }: { events: RecordedTokenEvent[] }) {
  if (events.length === 0) {
    return (
      <p className="text-sm text-muted">
        No token events yet. When you request a token, or an inquiry needs one, renews one before it expires
        or renews one after a 401, the event appears here.
      </p>
    );
  }
  return (
    <ol className="divide-y divide-subtle">
      {events.map((event) => {
        const kind = TOKEN_EVENT_LABELS[event.type] ?? {
          label: event.type,
          tone: "neutral" as const,
          why: "",
        };
        return (
          <li
            key={`${event.runId}-${event.type}-${event.at}`}
            className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2"
          >
            <Badge tone={kind.tone}>{kind.label}</Badge>
            <span className="text-sm text-body">during {operationLabel(event.operation)}</span>
            <span className="font-mono text-xs text-muted" title="New token's fingerprint">
              {event.fingerprint}
            </span>
            <time dateTime={event.at} className="ml-auto text-xs text-muted tabular-nums">
              {new Date(event.at).toLocaleTimeString()}
            </time>
            <p className="w-full text-xs text-muted">{event.detail ?? kind.why}</p>
          </li>
        );
      })}
    </ol>
  );
}
