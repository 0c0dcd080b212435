/**
 * One call's context: the environment it goes to and that environment's client, whose client credentials pay
 * for it (a session's, the server's, a support batch's, a certification run's), and where its token lives
 * between calls. Resolved once per call by whoever owns it and passed down whole, so the code that drives the
 * token lifecycle never reads a session or a configuration.
 */
import "server-only";
import type { EnvironmentName, SessionInfo } from "@/lib/shared/contracts";
import type { EnvironmentChangedDetails } from "@/lib/shared/error-details";
import type { CardApiClient } from "@/lib/server/card-api/client";
import { currentEnvironment } from "@/lib/server/card-api/environments";
import type { EnvironmentConfig, ServerConfig } from "@/lib/server/config";
import type { AccessToken, Session, SessionState } from "@/lib/server/session";
import { ApiError } from "@/lib/server/util/errors";
import type { TokenBroker } from "./broker";
import { describeCredentials, resolveCredentials, type Credentials } from "./credentials";

export interface CallContext {
  readonly environment: EnvironmentConfig;
  readonly client: CardApiClient;
  readonly broker: TokenBroker;
  /** Who pays; a string says why nobody can (400 `no_credentials` once the call needs a token). */
  readonly credentials: Credentials | string;
  /** What GET /api/session shows of the credentials: the source and the client_id, never the secret. */
  readonly shown: SessionInfo["credentials"];
  /** The token held, whichever credentials obtained it (the broker checks the binding). */
  current(): AccessToken | undefined;
  /** Keeps a token obtained for these credentials, for the next call. */
  keep(token: AccessToken): void;
}

/** Where a context's token lives: a session, a support batch's memory, a certification run's ledger. */
export type TokenPlace = Pick<CallContext, "current" | "keep">;

/** The credentials that pay for `call`; 400 `no_credentials` when it has none. */
export function paying(call: Pick<CallContext, "credentials">): Credentials {
  if (typeof call.credentials === "string") throw new ApiError("no_credentials", call.credentials);
  return call.credentials;
}

/** The context's token when it belongs to the context's credentials and token endpoint. */
export function boundToken(call: CallContext): AccessToken | undefined {
  const token = call.current();
  const { credentials } = call;
  return token && typeof credentials !== "string" && token.credentialsKey === credentials.key
    ? token
    : undefined;
}

/** 409 `environment_changed` when the caller named another environment than the context's. */
export function assertEnvironment(call: CallContext, expected: EnvironmentName | undefined): void {
  const actual = call.environment.name;
  if (expected === undefined || expected === actual) return;
  const details: EnvironmentChangedDetails = { session_environment: actual, requested_environment: expected };
  throw new ApiError(
    "environment_changed",
    `The session's environment is now ${actual}, not ${expected} (it was switched, perhaps in ` +
      "another tab): nothing was sent. Check the environment and run again.",
    details,
  );
}

/** A token kept in memory only: a support batch's cards share one, nothing is written anywhere. */
export function memoryToken(initial?: AccessToken): TokenPlace {
  let token = initial;
  return {
    current: () => token,
    keep: (next) => {
      token = next;
    },
  };
}

export interface CallContextDeps {
  config: ServerConfig;
  broker: TokenBroker;
  clientFor(environment: EnvironmentConfig): CardApiClient;
}

/** Builds call contexts from what a session (or a support batch, as a session would) holds. */
export function callContexts({ config, broker, clientFor }: CallContextDeps) {
  /** The state's environment (the default when it names none still configured) and credentials, resolved now. */
  const fromState = (
    state: Pick<SessionState, "environment" | "credentials">,
    place: TokenPlace,
  ): CallContext => {
    const environment = currentEnvironment(config, state.environment);
    return {
      environment,
      client: clientFor(environment),
      broker,
      credentials: resolveCredentials(state, config, environment),
      shown: describeCredentials(state, config),
      current: place.current,
      keep: place.keep,
    };
  };
  /** The cookie session's: a new token updates the session (its cookie is written back). */
  const ofSession = (session: Session): CallContext =>
    fromState(session.state, {
      current: () => session.state.token,
      keep: (token) => session.update({ token }),
    });
  return { config, fromState, ofSession };
}

export type CallContexts = ReturnType<typeof callContexts>;
