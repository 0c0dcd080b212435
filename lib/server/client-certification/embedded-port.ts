/**
 * The port the embedded sandbox reaches certification clients through. It holds no more than the clients' id
 * prefix, so that the root can hand it to the sandbox at once while the service (and its modules) is built on
 * the first certification client's call: the sandbox starts before the database, and demo clients never wait.
 */
import "server-only";
import type { SandboxClientPort } from "@/lib/sandbox";
import type { ClientCertificationService } from "./service";

/** Client ids of certification clients start with this: other clients never cost a database query. */
export const CERTIFICATION_CLIENT_PREFIX = "cert-";

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
    planCall: async (clientId, operation) =>
      ours(clientId) ? (await port()).planCall(clientId, operation) : null,
  };
}
