import { Badge, type BadgeTone } from "./badge";

/**
 * The one badge for a state word: a certification run's or support batch's status (docs/design.md §9: the same
 * values, a run adding `interrupted`) and a case's verdict (docs/design.md §8). Each word has one label and one colour
 * wherever it is shown.
 */
const STATES = {
  queued: { label: "queued", tone: "neutral" },
  running: { label: "running", tone: "accent" },
  done: { label: "done", tone: "success" },
  cancelled: { label: "cancelled", tone: "warning" },
  interrupted: { label: "interrupted", tone: "warning" },
  pass: { label: "pass", tone: "success" },
  fail: { label: "fail", tone: "danger" },
  observed: { label: "observed", tone: "info" },
  not_applicable: { label: "not applicable", tone: "neutral" },
  not_run: { label: "not run", tone: "neutral" },
} as const satisfies Record<string, { label: string; tone: BadgeTone }>;

export type BadgeState = keyof typeof STATES;

export function StatusBadge({ status }: { status: BadgeState }) {
  const { label, tone } = STATES[status];
  return <Badge tone={tone}>{label}</Badge>;
}
