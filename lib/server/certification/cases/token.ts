/** TOK: the token request (API specification §2.2, §4.1, §5, §7). */
import "server-only";
import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { TokenBroker } from "@/lib/server/token/broker";
import { paying } from "@/lib/server/token/call-context";
import { tokenFingerprint } from "@/lib/server/token/metadata";
import type { TokenEvent } from "@/lib/shared/contracts";
import type { AccessToken } from "@/lib/server/session";
import { describe, get } from "../checks";
import { tamperToken, type CaseContext } from "../context";
import type { CaseDefinition } from "./case-definition";

const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const REQUEST_ID = /^req-\d+-[A-Za-z0-9]+$/;
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

function jwtExp(token: string): { exp: unknown; ok: boolean } {
  try {
    const claims = decodeJwt(token);
    return { exp: claims.exp, ok: true };
  } catch {
    return { exp: undefined, ok: false };
  }
}

const tokenFields: CaseDefinition = {
  id: "TOK-01",
  title: "A valid token request returns every field of the token resource, with its type and form",
  spec_sections: ["2.2", "4.1", "5.2"],
  async run(context) {
    const token = await context.sessionToken();
    const { checks } = context;
    const result = context.ledger.sessionTokenResult;
    if (!result) throw new Error("session token response missing");
    const ids = [result.record.id];
    const body = result.value;
    checks.add(
      "HTTP status",
      "2xx (success)",
      `HTTP ${result.status}`,
      result.status >= 200 && result.status < 300,
      ids,
    );
    checks.equal("data.type", "oauth-token", get(body, "data", "type"), ids);
    checkTokenAttributes(checks, body, token.accessToken, ids);
    checkTokenMeta(checks, body, ids);
  },
};

type Checks = CaseContext["checks"];

/** The token resource's attributes: a JWT with an exp claim, Bearer, whole seconds, a scope string. */
function checkTokenAttributes(checks: Checks, body: unknown, issued: string, ids: string[]): void {
  const accessToken = get(body, "data", "attributes", "access_token");
  const jwt = typeof accessToken === "string" ? jwtExp(accessToken) : { exp: undefined, ok: false };
  checks.add(
    "data.attributes.access_token",
    "a JWT with an exp claim",
    jwt.ok
      ? `a JWT (fingerprint ${tokenFingerprint(issued)}), exp ${describe(jwt.exp)}`
      : typeof accessToken === "string"
        ? "a string that is not a JWT"
        : describe(accessToken),
    jwt.ok && typeof jwt.exp === "number" && Number.isInteger(jwt.exp),
    ids,
  );
  checks.equal("data.attributes.token_type", "Bearer", get(body, "data", "attributes", "token_type"), ids);
  const expiresIn = get(body, "data", "attributes", "expires_in");
  checks.add(
    "data.attributes.expires_in",
    "an integer number of seconds (typically 7200)",
    describe(expiresIn),
    typeof expiresIn === "number" && Number.isInteger(expiresIn) && expiresIn > 0,
    ids,
  );
  const scope = get(body, "data", "attributes", "scope");
  checks.add(
    "data.attributes.scope",
    "a space-separated string of permissions",
    describe(scope),
    typeof scope === "string" && /^\S+( \S+)*$/.test(scope),
    ids,
  );
}

/** The envelope around it: meta's timestamp, request id and version, and the JSON:API version. */
function checkTokenMeta(checks: Checks, body: unknown, ids: string[]): void {
  checks.matches(
    "meta.timestamp",
    "ISO 8601 UTC with milliseconds",
    ISO_UTC_MS,
    get(body, "meta", "timestamp"),
    ids,
  );
  checks.matches(
    "meta.request_id",
    "req-<number>-<suffix>",
    REQUEST_ID,
    get(body, "meta", "request_id"),
    ids,
  );
  checkVersions(checks, body, ids);
}

/** The versions a token answer states: meta's semantic version and the JSON:API version. */
export function checkVersions(checks: Checks, body: unknown, ids: string[]): void {
  checks.matches("meta.version", "a semantic version", SEMVER, get(body, "meta", "version"), ids);
  const jsonapi = get(body, "jsonapi", "version");
  checks.add(
    "jsonapi.version",
    "a version string",
    describe(jsonapi),
    typeof jsonapi === "string" && jsonapi !== "",
    ids,
  );
}

/** A token request the upstream must refuse with 400 and no token (API specification §7). */
function refusedTokenCase(
  id: string,
  title: string,
  send: (context: CaseContext) => Promise<{ status: number; body: unknown; recordId: string }>,
): CaseDefinition {
  return {
    id,
    title,
    spec_sections: ["4.1", "7"],
    async run(context) {
      const { status, body, recordId } = await send(context);
      context.checks.status("HTTP status", 400, status, [recordId]);
      const issued = get(body, "data", "attributes", "access_token");
      context.checks.add(
        "no token issued",
        "no access_token",
        issued === undefined ? "none" : "an access_token",
        issued === undefined,
        [recordId],
      );
    },
  };
}

async function rawTokenRequest(context: CaseContext, body: string) {
  const result = await context.env.client.requestTokenWithBody(body);
  const record = context.record("token", result);
  return { status: result.exchange.response.status, body: result.check.value, recordId: record.id };
}

const wrongSecret = refusedTokenCase(
  "TOK-02",
  "A wrong client_secret is refused with 400",
  async (context) => {
    const { primary } = context.profile;
    const { result, record } = await context.requestToken({
      clientId: primary.clientId,
      clientSecret: `${primary.clientSecret}-wrong`,
    });
    return { status: result.exchange.response.status, body: result.check.value, recordId: record.id };
  },
);

const wrongGrant = refusedTokenCase("TOK-03", "A wrong grant_type is refused with 400", (context) => {
  const { clientId, clientSecret } = context.profile.primary;
  return rawTokenRequest(
    context,
    JSON.stringify({ client_id: clientId, client_secret: clientSecret, grant_type: "password" }),
  );
});

const missingGrant = refusedTokenCase(
  "TOK-04",
  "A token request without grant_type is refused with 400",
  (context) => {
    const { clientId, clientSecret } = context.profile.primary;
    return rawTokenRequest(context, JSON.stringify({ client_id: clientId, client_secret: clientSecret }));
  },
);

const malformedBody = refusedTokenCase(
  "TOK-05",
  "A malformed token request body is refused with 400",
  (context) =>
    // Cut-off JSON without the secret: the text is kept as sent in the evidence.
    rawTokenRequest(
      context,
      `{"client_id":${JSON.stringify(context.profile.primary.clientId)},"grant_type":"client_credentials"`,
    ),
);

const tokenReuse: CaseDefinition = {
  id: "TOK-06",
  title: "One token is reused across calls and cases",
  spec_sections: ["5.3", "5.7"],
  async run(context) {
    const token = await context.sessionToken();
    const fingerprint = tokenFingerprint(token.accessToken);
    const ids: string[] = [];
    const statuses: number[] = [];
    for (let call = 0; call < 3; call += 1) {
      const again = await context.sessionToken();
      const { status, record } = await context.balance({ token: again.accessToken });
      ids.push(record.id);
      statuses.push(status);
    }
    context.checks.add(
      "the same token is accepted by consecutive calls",
      "HTTP 200 for each of 3 Balance Inquiries with one token",
      statuses.map((status) => `HTTP ${status}`).join(", "),
      statuses.every((status) => status === 200),
      ids,
    );
    const used = context.ledger.exchanges.filter((record) => record.operation !== "token").length;
    const { acquired, renewed } = context.ledger.sessionTokenRequests;
    context.checks.add(
      "token requests for the run's client",
      "1 (requested once and reused by every case; renewals only near expiry)",
      `${acquired} token request(s) and ${renewed} renewal(s) before expiry for ${used} card call(s) so far, token ${fingerprint}`,
      acquired === 1,
    );
  },
};

const oneTokenBothInstances: CaseDefinition = {
  id: "TOK-07",
  title: "One token works on sandbox and production (Balance Inquiry only)",
  spec_sections: ["1", "5.6"],
  async run(context) {
    const { sibling } = context.env;
    if (!sibling) {
      return context.notApplicable(
        "Needs both the sandbox and the production instance configured behind one token endpoint " +
          "(CARD_API_AUTH_URL with CARD_API_SANDBOX_URL and CARD_API_PRODUCTION_URL); the embedded sandbox is a single instance.",
      );
    }
    const token = await context.sessionToken();
    const here = await context.balance({ token: token.accessToken });
    const there = await context.balance({ token: token.accessToken, client: sibling.client });
    for (const [name, call] of [
      [context.env.name, here],
      [sibling.name, there],
    ] as const) {
      context.checks.add(
        `the token is accepted by ${name}`,
        "not 401/403 (the token is valid on both instances)",
        `HTTP ${call.status}`,
        call.status !== 401 && call.status !== 403,
        [call.record.id],
      );
    }
  },
};

const renewalBeforeExpiry: CaseDefinition = {
  id: "TOK-08",
  title: "The token is renewed before it expires, and the new token works",
  spec_sections: ["5.4", "5.8"],
  async run(context) {
    const client = context.profile.shortLived ?? context.profile.primary;
    const { now } = context.settings;
    // The broker's clock is moved to its renewal point instead of waiting for it: the upstream sees the
    // same requests it would see after the wait, while the old token is still valid.
    let shift = 0;
    const broker = new TokenBroker(context.settings.renewSkewSeconds, () => now() + shift);
    const tokens = context.callContext(client, context.caseId);
    const first = await broker.ensure(tokens, undefined);
    const old = first.token;
    shift = Math.max(0, broker.renewAt(old) - now());
    const expiresAt = old.issuedAt + old.expiresIn * 1000;
    const renewed = await broker.ensure(tokens, old);
    context.checks.add(
      "renewal point reached",
      `the console's renewal margin before expiry (min(${context.settings.renewSkewSeconds} s, half the lifetime))`,
      `client ${client.clientId}, lifetime ${old.expiresIn} s; broker clock advanced ${(shift / 1000).toFixed(1)} s instead of waiting; ` +
        `${((expiresAt - (now() + shift)) / 1000).toFixed(1)} s of validity left`,
      now() + shift < expiresAt,
    );
    const event = renewed.event;
    const newPrint = tokenFingerprint(renewed.token.accessToken);
    const oldPrint = tokenFingerprint(old.accessToken);
    context.checks.add(
      "token event",
      `renewed_before_expiry with a new token (old ${oldPrint})`,
      event ? `${event.type}, new token ${newPrint}` : "no renewal",
      event?.type === "renewed_before_expiry" && newPrint !== oldPrint,
    );
    const call = await context.balance({ token: renewed.token.accessToken, events: event ? [event] : [] });
    context.checks.status("Balance Inquiry with the renewed token", 200, call.status, [call.record.id]);
    const oldCall = await context.balance({ token: old.accessToken });
    context.checks.status("the old token still works until it expires", 200, oldCall.status, [
      oldCall.record.id,
    ]);
  },
};

const renewAfter401: CaseDefinition = {
  id: "TOK-09",
  title: "After a 401 the token is renewed and the call retried once with the same X-Request-Id",
  spec_sections: ["5.8", "7", "8"],
  async run(context) {
    // Where Gift Balance Inquiry may not run (production without allow_production_gift), the renewal and
    // retry are proven with Balance Inquiry, which carries no Request Id: that part is then not shown.
    const giftAllowed = context.env.name !== "production" || context.settings.allowProductionGift;
    // A broker of its own: the renewal must be a real token request, not the run's cached token.
    const broker = new TokenBroker(context.settings.renewSkewSeconds, context.settings.now);
    const tokens = context.callContext(context.profile.primary, context.caseId);
    const valid = await unbrokeredToken(context, paying(tokens).key);
    if (!valid) {
      context.checks.add("a token for the case", "a token", "the token endpoint issued none", false);
      return;
    }
    const { rejected, how } = rejectedToken(context, valid);
    const requestId = randomUUID();
    const send = (token: string, events: TokenEvent[] = []) =>
      giftAllowed ? context.gift({ token, requestId, events }) : context.balance({ token, events });
    const attemptStartedAt = context.settings.now();
    const attempt = await send(rejected.accessToken);
    context.checks.add(
      "first attempt",
      `HTTP 401 (${how})`,
      `HTTP ${attempt.status}`,
      attempt.status === 401,
      [attempt.record.id],
    );
    const tokenRequestsBefore = tokenRequestCount(context);
    const renewed = await broker.renewAfterRejection(tokens, rejected, attemptStartedAt);
    const tokenRequests = tokenRequestCount(context) - tokenRequestsBefore;
    const retry = await send(renewed.token.accessToken, renewed.event ? [renewed.event] : []);
    context.checks.add(
      "token event",
      "renewed_after_401 with a new token from the token endpoint",
      `${renewed.event?.type ?? "none"}, ${tokenRequests} token request(s), token ${tokenFingerprint(renewed.token.accessToken)}`,
      renewed.event?.type === "renewed_after_401" &&
        tokenRequests === 1 &&
        renewed.token.accessToken !== rejected.accessToken,
    );
    await checkRetry(context, { giftAllowed, requestId, attempt, retry, token: renewed.token.accessToken });
  },
};

/** Obtained outside the broker, so that the renewal cannot be served from the broker's memory. */
async function unbrokeredToken(context: CaseContext, credentialsKey: string): Promise<AccessToken | null> {
  const { grant } = await context.requestToken(context.profile.primary);
  if (!grant) return null;
  return {
    accessToken: grant.accessToken,
    tokenType: grant.tokenType,
    scope: grant.scope,
    expiresIn: grant.expiresIn,
    issuedAt: context.settings.now(),
    credentialsKey,
    meta: null,
    jsonapi: null,
  };
}

/** A token the upstream will refuse: revoked where the sandbox allows it, otherwise a tampered copy. */
function rejectedToken(context: CaseContext, valid: AccessToken): { rejected: AccessToken; how: string } {
  if (context.env.revokeTokens) {
    context.env.revokeTokens();
    return { rejected: valid, how: "every token issued so far was revoked in the sandbox" };
  }
  return {
    rejected: { ...valid, accessToken: tamperToken(valid.accessToken) },
    how: "a tampered copy of a valid token was sent (a real upstream offers no way to revoke one)",
  };
}

function tokenRequestCount(context: CaseContext): number {
  return context.exchanges.filter((record) => record.operation === "token").length;
}

/** What the checks read of an inquiry call, Gift or plain Balance. */
interface Call {
  status: number;
  body: unknown;
  record: { id: string; request: { headers: Record<string, string> } };
}

/** The retry kept the Request Id, was processed, and (where it can be looked up) recorded one transaction. */
async function checkRetry(
  context: CaseContext,
  run: { giftAllowed: boolean; requestId: string; attempt: Call; retry: Call; token: string },
): Promise<void> {
  const { giftAllowed, requestId, attempt, retry } = run;
  const retryIds = [attempt.record.id, retry.record.id];
  if (giftAllowed) {
    context.checks.equal(
      "the retry's X-Request-Id",
      requestId,
      retry.record.request.headers["X-Request-Id"],
      retryIds,
    );
  } else {
    context.checks.observe(
      "the retry's X-Request-Id",
      "the same X-Request-Id (Gift Balance Inquiry)",
      "not shown: Gift Balance Inquiry is not allowed in this production run, so Balance Inquiry was retried",
      retryIds,
    );
  }
  context.checks.add(
    "the retry with the renewed token",
    "HTTP 2xx (the inquiry is processed)",
    `HTTP ${retry.status}`,
    retry.status >= 200 && retry.status < 300,
    [retry.record.id],
  );
  if (giftAllowed && context.profile.transactionLookup && retry.status >= 200 && retry.status < 300) {
    const found = await context.lookup(run.token, requestId);
    context.checks.equal(
      "one transaction for the Request Id",
      get(retry.body, "data", "transaction_id"),
      get(found.body, "data", "transaction_id"),
      [found.record.id],
    );
  }
}

export const TOKEN_CASES = [
  tokenFields,
  wrongSecret,
  wrongGrant,
  missingGrant,
  malformedBody,
  tokenReuse,
  oneTokenBothInstances,
  renewalBeforeExpiry,
];
/** Runs last: on the embedded sandbox it revokes every token, the run's own included. */
export const RENEW_AFTER_401_CASE = renewAfter401;
