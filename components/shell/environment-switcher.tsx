"use client";

import type { EnvironmentName, SessionInfo } from "@/lib/shared/contracts";
import { environmentLabel } from "@/lib/client/environments";
import { useSwitchEnvironment } from "@/lib/client/use-session-api";
import { useAllows } from "@/components/team/use-me";
import { cx } from "@/components/ui/class-names";
import { Skeleton } from "@/components/ui/skeleton";

export function EnvironmentSwitcher({ session }: { session: SessionInfo | undefined }) {
  const { trigger, isMutating, error } = useSwitchEnvironment();
  const allows = useAllows();
  if (!session) return <Skeleton className="h-8 w-48" />;
  // Environments where the user may do nothing are not offered (the current one always stays listed).
  const environments = session.environments.filter(
    ({ name }) => name === session.environment || (allows?.environments[name]?.length ?? 0) > 0,
  );

  const production = session.environment === "production";
  return (
    <div className="flex items-center gap-2">
      <label htmlFor="environment-switcher" className="sr-only">
        Environment
      </label>
      <div className="relative">
        <span
          aria-hidden="true"
          className={cx(
            "pointer-events-none absolute top-1/2 left-2.5 size-2 -translate-y-1/2 rounded-full",
            production ? "bg-white" : session.environment === "embedded" ? "bg-emerald-500" : "bg-sky-500",
          )}
        />
        <select
          id="environment-switcher"
          value={session.environment}
          disabled={isMutating}
          onChange={(event) =>
            void trigger({ environment: event.target.value as EnvironmentName }).catch(() => {})
          }
          className={cx(
            "h-8 appearance-none rounded-md border pr-8 pl-6 text-sm font-medium shadow-sm",
            "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-70",
            production ? "border-red-800 bg-red-700 text-inverted" : "border-field bg-panel text-fg",
          )}
        >
          {environments.map((environment) => (
            <option key={environment.name} value={environment.name}>
              {environmentLabel(environment.name)}
            </option>
          ))}
        </select>
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          fill="currentColor"
          className={cx(
            "pointer-events-none absolute top-1/2 right-2 size-4 -translate-y-1/2",
            production ? "text-inverted" : "text-subtle",
          )}
        >
          <path
            fillRule="evenodd"
            d="M5.22 8.22a.75.75 0 0 1 1.06 0L10 11.94l3.72-3.72a.75.75 0 1 1 1.06 1.06l-4.25 4.25a.75.75 0 0 1-1.06 0L5.22 9.28a.75.75 0 0 1 0-1.06Z"
            clipRule="evenodd"
          />
        </svg>
      </div>
      {error ? (
        <span role="alert" className="text-xs text-danger">
          Not switched: {error.message}
        </span>
      ) : null}
    </div>
  );
}
