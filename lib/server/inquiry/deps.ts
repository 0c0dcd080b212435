/**
 * The one place that builds what the inquiry operations need (lib/server/inquiry/operations `InquiryDeps`) and
 * the token sources over sessions and support batches: route handlers and the support desk get them from here.
 */
import "server-only";
import { getConfig, type ServerConfig } from "@/lib/server/config";
import { processSingletonFor } from "@/lib/server/process-singleton";
import { clientFor } from "@/lib/server/card-api/environments";
import { TokenBroker } from "@/lib/server/card-api/token-broker";
import type { Session } from "@/lib/server/session";
import {
  sessionTokenSource,
  stateTokenSource,
  type DescribedTokenSource,
} from "@/lib/server/session/token-source";
import type { BatchTokenSourceFactory, DetachedInquiry } from "@/lib/server/support/batch-runner";
import { runInquiry, type InquiryDeps } from "./operations";

/** One broker per configuration, shared by every route bundle of the process. */
export function tokenBroker(config: ServerConfig): TokenBroker {
  return processSingletonFor("token-broker", config, (owner) => new TokenBroker(owner.tokenRenewSkewSeconds));
}

export function inquiryDeps(config: ServerConfig = getConfig()): InquiryDeps {
  return {
    config,
    broker: tokenBroker(config),
    clientFor: (environment) => clientFor(config, environment),
  };
}

/** The deps and the session's token source for one call, its environment and credentials resolved once. */
export function sessionCall(
  session: Session,
  config: ServerConfig = getConfig(),
): { deps: InquiryDeps; source: DescribedTokenSource } {
  return { deps: inquiryDeps(config), source: sessionTokenSource(config, session) };
}

/** A support batch card's Balance Inquiry (lib/server/support/batch-runner `DetachedInquiry`). */
export function batchBalanceInquiry(config: ServerConfig = getConfig()): DetachedInquiry {
  return (source, input) => runInquiry(inquiryDeps(config), source, "balance_inquiry", input);
}

/** A support batch card's token source: the batch's environment and credentials, its cards' shared token. */
export function batchTokenSource(config: ServerConfig = getConfig()): BatchTokenSourceFactory {
  return (state, tokens) => stateTokenSource(config, state, tokens);
}
