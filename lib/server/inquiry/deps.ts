/**
 * What the inquiry operations are called with: the deps the composition root built (lib/server/root) and a
 * token source over a session or a support batch, each resolved once per call.
 */
import "server-only";
import type { ServerConfig } from "@/lib/server/config";
import type { Session } from "@/lib/server/session";
import {
  sessionTokenSource,
  stateTokenSource,
  type DescribedTokenSource,
} from "@/lib/server/session/token-source";
import type { BatchTokenSourceFactory, DetachedInquiry } from "@/lib/server/support/batch-runner";
import { runInquiry, type InquiryDeps } from "./operations";

/** The deps and the session's token source for one call, its environment and credentials resolved once. */
export function sessionCall(
  deps: InquiryDeps,
  session: Session,
): { deps: InquiryDeps; source: DescribedTokenSource } {
  return { deps, source: sessionTokenSource(deps.config, session) };
}

/** A support batch card's Balance Inquiry (lib/server/support/batch-runner `DetachedInquiry`). */
export function batchBalanceInquiry(deps: InquiryDeps): DetachedInquiry {
  return (source, input) => runInquiry(deps, source, "balance_inquiry", input);
}

/** A support batch card's token source: the batch's environment and credentials, its cards' shared token. */
export function batchTokenSource(config: ServerConfig): BatchTokenSourceFactory {
  return (state, tokens) => stateTokenSource(config, state, tokens);
}
