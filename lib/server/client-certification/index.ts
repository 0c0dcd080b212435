/**
 * The port the embedded sandbox reaches certification clients through (the service is reached lazily: the
 * sandbox starts before the database), and the key that signs client certification bundles. The service
 * itself is built by the composition root (lib/server/root) over its database.
 */
import "server-only";
import { loadEvidenceSigningKey, type EvidenceSigningKey } from "@/lib/server/certification/signing-key";
import type { ServerConfig } from "@/lib/server/config";
import { ApiError } from "@/lib/server/util/errors";
import { logger } from "@/lib/server/util/logger";
import { clientCertificationIdSchema } from "@/lib/shared/client-certification-contract";
import type { SandboxClientPort } from "@/lib/sandbox";
import type { SignedInUser } from "@/lib/server/identity/me";
import { CERTIFICATION_CLIENT_PREFIX, type ClientCertificationService, type Viewer } from "./service";

export { createClientCertificationService, type ClientCertificationService } from "./service";

/** Only certification clients (by their id's prefix) wait for the database; demo clients never do. */
export function embeddedClientPort(service: () => Promise<ClientCertificationService>): SandboxClientPort {
  const port = async () => (await service()).port();
  const ours = (clientId: string) => clientId.startsWith(CERTIFICATION_CLIENT_PREFIX);
  return {
    authenticate: async (clientId, secret) =>
      ours(clientId) ? (await port()).authenticate(clientId, secret) : undefined,
    find: async (clientId) => (ours(clientId) ? (await port()).find(clientId) : undefined),
    take: async (clientId, operation) => (await port()).take(clientId, operation),
    record: async (call) => (await port()).record(call),
    refused: async (clientId) => (ours(clientId) ? (await port()).refused(clientId) : undefined),
  };
}

/** The key that signs client certification bundles: the same EVIDENCE_SIGNING_KEY as certification runs. */
export function loadClientEvidenceKey(config: ServerConfig): Promise<EvidenceSigningKey> {
  return loadEvidenceSigningKey({
    env: { EVIDENCE_SIGNING_KEY: config.evidenceSigningKey, DATA_DIR: config.dataDir },
    warn: (message) => logger.warn({ component: "client-certification" }, message),
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
