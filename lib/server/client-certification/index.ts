/**
 * What the client certification routes share: the key that signs client certification bundles, and the caller
 * and certification id as the service takes them. The service itself is built by the composition root
 * (lib/server/root) over its database, on its first call; ./embedded-port is the sandbox's way in.
 */
import "server-only";
import { loadEvidenceSigningKey, type EvidenceSigningKey } from "@/lib/server/certification/signing-key";
import type { ServerConfig } from "@/lib/server/config";
import { ApiError } from "@/lib/server/util/errors";
import { logger } from "@/lib/server/util/logger";
import { generatedKeyLevel } from "@/lib/server/util/generated-key";
import { clientCertificationIdSchema } from "@/lib/shared/client-certification-contract";
import type { SignedInUser } from "@/lib/server/identity/me";
import type { Viewer } from "./service";

export { createClientCertificationService, type ClientCertificationService } from "./service";

/** The key that signs client certification bundles: the same EVIDENCE_SIGNING_KEY as certification runs. */
export function loadClientEvidenceKey(config: ServerConfig): Promise<EvidenceSigningKey> {
  return loadEvidenceSigningKey({
    env: { EVIDENCE_SIGNING_KEY: config.evidenceSigningKey, DATA_DIR: config.dataDir },
    warn: (message) =>
      logger[generatedKeyLevel(config.databaseUrl)]({ component: "client-certification" }, message),
  });
}

/** The path segment after /api/client-certifications/ (the certification id), validated. */
export function certificationIdOf(request: Request): string {
  const id = new URL(request.url).pathname.split("/")[3] ?? "";
  const parsed = clientCertificationIdSchema.safeParse(id);
  if (!parsed.success)
    throw new ApiError("not_found", `There is no client certification ${JSON.stringify(id)}.`);
  return parsed.data;
}

/** The caller as the service tells owners apart: a certification is its starter's (admins see every one). */
export function viewerOf(user: Pick<SignedInUser, "id" | "roles">): Viewer {
  return { id: user.id, admin: user.roles.includes("admin") };
}
