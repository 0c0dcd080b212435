/**
 * The test data of a certification run: which clients and cards to use in one environment. For the
 * embedded sandbox it defaults to the sandbox's own fixtures (docs/design.md §5); for a real upstream the
 * operator's integration representative hands out test cards and clients, given as a JSON profile whose
 * secrets are named by environment variable, never written in the file.
 */
import "server-only";
import type { EnvironmentConfig, ServerConfig } from "@/lib/server/config";
import type { ProfileClientRef, ProfileFile } from "@/lib/server/config/certification";
import { DEMO_CLIENTS, TEST_CARDS } from "@/lib/sandbox/fixtures";

export interface CertificationClient {
  clientId: string;
  clientSecret: string;
}

export interface CertificationProfile {
  /** The run's client: every scope the balance operations need. */
  primary: CertificationClient;
  /** A client with a short token lifetime (renewal before expiry, expired token). */
  shortLived?: CertificationClient;
  /** A client whose token lacks the balance operations' scope (403). */
  withoutScope?: CertificationClient;
  cards: {
    /** An active card with a gift balance. */
    active: string;
    /** A card the upstream declines on Gift Balance Inquiry. */
    declined?: string;
  };
  locationId: string;
  /**
   * Whether the upstream serves Lookup Transaction by Request Id at the console's path
   * (`/transaction/v1/transactions/request-id/{id}`; the specification does not show the real one).
   */
  transactionLookup: boolean;
}

export { profileFileSchema, type ProfileFile } from "@/lib/server/config/certification";

export class ProfileError extends Error {
  override name = "ProfileError";
}

function demoClient(clientId: string, secret: string): CertificationClient {
  const client = DEMO_CLIENTS.find((candidate) => candidate.clientId === clientId);
  if (!client) throw new Error(`fixture client ${clientId} missing`);
  return { clientId: client.clientId, clientSecret: secret };
}

function fixtureCard(behaviour: "active" | "inactive"): string {
  const card = TEST_CARDS.find(
    (candidate) => candidate.behaviour === behaviour && (behaviour !== "active" || candidate.purses.gift > 0),
  );
  if (!card) throw new Error(`fixture card ${behaviour} missing`);
  return card.cardNumber;
}

/** The embedded sandbox's clients and cards (docs/design.md §5). */
export function embeddedProfile(config: ServerConfig): CertificationProfile {
  const secret = config.sandboxDemoSecret;
  return {
    primary: demoClient("demo-client", secret),
    shortLived: demoClient("demo-short-lived", secret),
    withoutScope: demoClient("demo-reports-only", secret),
    cards: { active: fixtureCard("active"), declined: fixtureCard("inactive") },
    locationId: "cert-location-1",
    transactionLookup: true,
  };
}

function resolveClient(
  ref: ProfileClientRef | undefined,
  env: Record<string, string | undefined>,
  what: string,
): CertificationClient | undefined {
  if (!ref) return undefined;
  const secret = env[ref.client_secret_env];
  if (!secret) throw new ProfileError(`${what}: environment variable ${ref.client_secret_env} is not set.`);
  return { clientId: ref.client_id, clientSecret: secret };
}

/**
 * The profile for one environment. Embedded: the fixtures, overridden by the file when one is given.
 * Sandbox/production: the file's cards; the primary client from the file, else the server's credentials.
 */
export function resolveProfile(
  config: ServerConfig,
  environment: EnvironmentConfig,
  file: ProfileFile | undefined,
  env: Record<string, string | undefined>,
): CertificationProfile {
  const base = environment.transport === "embedded" ? embeddedProfile(config) : undefined;
  if (!file) {
    if (base) return base;
    throw new ProfileError(
      `No test cards for ${environment.name}: give a profile (--profile FILE) with the cards your API ` +
        "operator issued for certification.",
    );
  }
  const primary =
    resolveClient(file.primary, env, "primary") ??
    base?.primary ??
    (config.serverCredentials
      ? { clientId: config.serverCredentials.clientId, clientSecret: config.serverCredentials.clientSecret }
      : undefined);
  if (!primary) {
    throw new ProfileError(
      `No client for ${environment.name}: set CARD_API_CLIENT_ID/CARD_API_CLIENT_SECRET or name a primary ` +
        "client in the profile.",
    );
  }
  return {
    primary,
    shortLived: resolveClient(file.short_lived, env, "short_lived") ?? base?.shortLived,
    withoutScope: resolveClient(file.without_scope, env, "without_scope") ?? base?.withoutScope,
    cards: { active: file.cards.active, declined: file.cards.declined ?? base?.cards.declined },
    locationId: file.location_id,
    transactionLookup: base ? true : file.transaction_lookup,
  };
}
