/**
 * The process's client-certification service, over the database of lib/server/services, and the port the
 * embedded sandbox reaches certification clients through (built lazily: the sandbox starts before the database).
 */
import "server-only";
import { getConfig, type ServerConfig } from "@/lib/server/config";
import { processSingletonFor } from "@/lib/server/process-singleton";
import { getServices } from "@/lib/server/services";
import type { SandboxClientPort } from "@/lib/sandbox";
import {
  CERTIFICATION_CLIENT_PREFIX,
  createClientCertificationService,
  type ClientCertificationService,
} from "./service";

export function clientCertificationService(
  config: ServerConfig = getConfig(),
): Promise<ClientCertificationService> {
  return processSingletonFor("client-certification", config, async () =>
    createClientCertificationService({ db: (await getServices(config)).db }),
  );
}

/** Only certification clients (by their id's prefix) wait for the database; demo clients never do. */
export function embeddedClientPort(): SandboxClientPort {
  const port = async () => (await clientCertificationService()).port();
  const ours = (clientId: string) => clientId.startsWith(CERTIFICATION_CLIENT_PREFIX);
  return {
    authenticate: async (clientId, secret) =>
      ours(clientId) ? (await port()).authenticate(clientId, secret) : undefined,
    find: async (clientId) => (ours(clientId) ? (await port()).find(clientId) : undefined),
    take: async (clientId, operation) => (await port()).take(clientId, operation),
    record: async (call) => (await port()).record(call),
  };
}
