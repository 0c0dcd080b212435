/**
 * Token sources (lib/server/card-api/token-source) over what a session holds: the cookie session itself, and a
 * bare state (environment and credentials, a token kept in memory) for calls made outside any request.
 */
import "server-only";
import type { SessionInfo } from "@/lib/shared/contracts";
import type { ServerConfig } from "@/lib/server/config";
import { currentEnvironment } from "@/lib/server/card-api/environments";
import { sourceCredentials, type TokenSource } from "@/lib/server/card-api/token-source";
import type { AccessToken, Session, SessionState } from "@/lib/server/session";
import { describeCredentials, resolveCredentials } from "./credentials";

/** A token source that can also say which credentials it uses (source and client_id, never the secret). */
export interface DescribedTokenSource extends TokenSource {
  readonly credentialsShown: SessionInfo["credentials"];
}

/** Where a source built on a state keeps its token. */
export interface TokenHolder {
  current(): AccessToken | undefined;
  keep(token: AccessToken): void;
}

/** The state's environment (the default when it names none still configured) and credentials, resolved now. */
export function stateTokenSource(
  config: ServerConfig,
  state: Pick<SessionState, "environment" | "credentials">,
  holder: TokenHolder,
): DescribedTokenSource {
  const environment = currentEnvironment(config, state.environment);
  return {
    environment,
    credentials: sourceCredentials(resolveCredentials(state, config, environment), environment),
    credentialsShown: describeCredentials(state, config),
    current: () => holder.current(),
    keep: (token) => holder.keep(token),
  };
}

/** The cookie session as a token source: a new token updates the session (its cookie is written back). */
export function sessionTokenSource(config: ServerConfig, session: Session): DescribedTokenSource {
  return stateTokenSource(config, session.state, {
    current: () => session.state.token,
    keep: (token) => session.update({ token }),
  });
}

/** A token kept in memory only: a support batch's cards share one, nothing is written anywhere. */
export function memoryTokenHolder(initial?: AccessToken): TokenHolder {
  let token = initial;
  return {
    current: () => token,
    keep: (next) => {
      token = next;
    },
  };
}
