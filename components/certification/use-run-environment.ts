"use client";

import { useState } from "react";
import type { EnvironmentName } from "@/lib/shared/contracts";
import type { CertifiableEnvironment } from "@/lib/shared/certification-api";
import { useRuns } from "@/lib/client/use-certification-api";
import { useSession } from "@/lib/client/use-session-api";

/** The environments a run may target here, and the one chosen: by default the session's, when certifiable. */
export function useRunEnvironment() {
  const { data: session } = useSession();
  // The runs list (already fetched by the page) says which environments this server can certify.
  const { data: runs } = useRuns();
  const [chosenEnvironment, setEnvironment] = useState<EnvironmentName | null>(null);
  const offered: CertifiableEnvironment[] | undefined =
    runs?.environments ?? session?.environments.map(({ name }) => ({ name, certifiable: true }));
  const refused = (offered ?? []).filter((item) => !item.certifiable);
  const isCertifiable = (name: EnvironmentName) => !refused.some((item) => item.name === name);
  // The session's environment is the default only when it can be certified here.
  const fallback = session && isCertifiable(session.environment) ? session.environment : "embedded";
  return { offered, refused, environment: chosenEnvironment ?? fallback, setEnvironment };
}
