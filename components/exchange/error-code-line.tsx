import type { ConsoleErrorLike } from "@/lib/client/api-error-view";

/** "HTTP 409 · environment_changed": the status and code of a console error, as every error alert ends. */
export function ErrorCodeLine({ error }: { error: ConsoleErrorLike }) {
  return (
    <p className="font-mono text-xs opacity-80">
      {error.status ? `HTTP ${error.status} · ` : ""}
      {error.code}
    </p>
  );
}
