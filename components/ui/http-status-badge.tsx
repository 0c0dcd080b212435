import { statusLine } from "@/lib/client/http-status";
import { Badge, type BadgeTone } from "./badge";

/** 2xx green, 5xx (and no answer at all) red, anything else amber. */
function httpStatusTone(status: number): BadgeTone {
  if (status >= 200 && status < 300) return "success";
  if (status >= 500 || status === 0) return "danger";
  return "warning";
}

/** "201 Created" in the colour of its class. */
export function HttpStatusBadge({ status, size }: { status: number; size?: "sm" | "lg" }) {
  return (
    <Badge tone={httpStatusTone(status)} size={size}>
      {statusLine(status)}
    </Badge>
  );
}
