/**
 * What a case works with: the environment's card API client (the console's own, one code path for the
 * embedded sandbox and a real upstream), the run's shared token, and helpers that turn every call into
 * the console's exchange record (masked and redacted as everywhere) and collect the upstream ids.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { EnvironmentName, ExchangeRecord, OperationName, TokenEvent } from "@/lib/shared/contracts";
import type { ApiResult, CardApiClient, CardRequest, TokenGrant } from "@/lib/server/card-api/client";
import { buildExchangeRecord } from "@/lib/server/card-api/exchange-record";
import { TokenBroker } from "@/lib/server/token/broker";
import { memoryToken, type CallContext, type TokenPlace } from "@/lib/server/token/call-context";
import { bound } from "@/lib/server/token/credentials";
import { tokenFingerprint } from "@/lib/server/token/metadata";
import type { AccessToken } from "@/lib/server/session";
import { CheckList, get } from "./checks";
import type { CertificationClient, CertificationProfile } from "./profile";
import { RunSecrets } from "./run-secrets";
import type { RunWait, TokenRecord, UpstreamIds } from "@/lib/shared/certification-contract";

export interface CertificationEnvironment {
  name: EnvironmentName;
  authUrl: string;
  baseUrl: string;
  transport: "embedded" | "http";
  client: CardApiClient;
  /** The other instance behind the same token endpoint (sandbox ↔ production), for the one-token case. */
  sibling?: { name: EnvironmentName; baseUrl: string; client: CardApiClient };
  /**
   * Makes the upstream reject every token issued so far. Only the embedded sandbox offers it (in-process);
   * elsewhere the renew-after-401 case presents a tampered token instead.
   */
  revokeTokens?: () => void;
}

export interface RunSettings {
  environment: CertificationEnvironment;
  profile: CertificationProfile;
  allowProductionGift: boolean;
  /** TOKEN_RENEW_SKEW_SECONDS: the console's renewal margin. */
  renewSkewSeconds: number;
  /** Longest a case may wait for a token to expire (AUTH-03); 0 never waits. */
  maxExpiryWaitMs: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Told when a case starts (a wait) and ends (null) waiting on purpose, to show it with the run's progress. */
  onWait?: (wait: RunWait | null) => Promise<void>;
  /** Told of every upstream call as it is recorded (the console's audit log). */
  onExchange?: (record: ExchangeRecord, caseId: string) => void;
}

/** The run's shared state across cases: its one token (API specification §5.7) and everything recorded. */
export class RunLedger {
  readonly exchanges: ExchangeRecord[] = [];
  readonly tokens: TokenRecord[] = [];
  sessionToken: AccessToken | undefined;
  /** The session token's own token response, for TOK-01 and VER-01. */
  sessionTokenResult: { record: ExchangeRecord; value: unknown; status: number } | undefined;
  /** Token requests for the run's token (TOK-06): the first, and renewals before expiry (API specification §5.8). */
  sessionTokenRequests = { acquired: 0, renewed: 0 };
  readonly broker: TokenBroker;
  /** Every secret and token the run sends: removed from everything it records. */
  readonly secrets = new RunSecrets();

  constructor(readonly settings: RunSettings) {
    this.broker = new TokenBroker(settings.renewSkewSeconds, settings.now);
    const { primary, shortLived, withoutScope } = settings.profile;
    this.secrets.add(primary.clientSecret, shortLived?.clientSecret, withoutScope?.clientSecret);
  }
}

export class NotApplicable extends Error {
  override name = "NotApplicable";
}

export class CaseContext {
  readonly checks: CheckList;
  readonly exchanges: ExchangeRecord[] = [];
  readonly ids: UpstreamIds = {
    transaction_ids: [],
    external_ids: [],
    x_request_ids: [],
    meta_request_ids: [],
  };
  readonly fingerprints = new Set<string>();
  /** Token events to attach to the next card call's record (as the console does). */
  private pendingEvents: TokenEvent[] = [];

  constructor(
    readonly caseId: string,
    readonly ledger: RunLedger,
  ) {
    this.checks = new CheckList((text) => ledger.secrets.text(text));
  }

  /** Waits `ms` on purpose, telling the run what for and until when (a wait of minutes is not a hang). */
  async wait(what: RunWait["what"], ms: number): Promise<void> {
    const { settings } = this;
    const until = new Date(settings.now() + ms).toISOString();
    await settings.onWait?.({ case_id: this.caseId, what, until });
    try {
      await settings.sleep(ms);
    } finally {
      await settings.onWait?.(null);
    }
  }

  /** Registers values the case sends (a token, a derived wrong secret) before they go upstream. */
  sending(...values: (string | null | undefined)[]): void {
    this.ledger.secrets.add(...values);
  }

  /** An upstream's value (an id, a scope) with the run's secrets removed; otherwise kept exactly. */
  clean(text: string): string {
    return this.ledger.secrets.scrub(text);
  }

  get settings(): RunSettings {
    return this.ledger.settings;
  }
  get env(): CertificationEnvironment {
    return this.ledger.settings.environment;
  }
  get profile(): CertificationProfile {
    return this.ledger.settings.profile;
  }

  /** Stops the case with verdict not_applicable and this reason. */
  notApplicable(reason: string): never {
    throw new NotApplicable(reason);
  }

  /** Gift Balance Inquiry records real transactions in production: only with allow_production_gift. */
  requireGift(): void {
    if (this.env.name === "production" && !this.settings.allowProductionGift) {
      this.notApplicable(
        "Gift Balance Inquiry records a real transaction in production; this run did not allow it " +
          "(allow_production_gift / --allow-production-gift).",
      );
    }
  }

  card(cardNumber = this.profile.cards.active): CardRequest {
    return {
      entry_mode: "keyed",
      card_number: cardNumber,
      pin_mode: "none",
      originator: { location_id: this.profile.locationId },
    };
  }

  // ---------- recording ----------

  record(
    operation: OperationName,
    result: ApiResult<unknown>,
    options: { requestId?: string; events?: TokenEvent[]; client?: CardApiClient } = {},
  ): ExchangeRecord {
    const events = [...this.pendingEvents, ...(options.events ?? [])];
    this.pendingEvents = [];
    // A token issued by this very answer is a secret of the run from now on, its own record included, even
    // when the answer around it is unusable (the upstream still handed it to the run's client).
    const issued = get(result.check.value, "data", "attributes", "access_token");
    if (operation === "token" && typeof issued === "string") this.sending(issued);
    const environment =
      options.client && options.client === this.env.sibling?.client ? this.env.sibling.name : this.env.name;
    const record = buildExchangeRecord({
      operation,
      environment,
      exchange: result.exchange,
      check: result.check,
      tokenEvents: events,
      requestId: options.requestId,
      secrets: this.ledger.secrets.list(),
    });
    this.exchanges.push(record);
    this.ledger.exchanges.push(record);
    this.settings.onExchange?.(record, this.caseId);
    if (options.requestId !== undefined && operation !== "transaction_lookup") {
      this.ids.x_request_ids.push(options.requestId);
    }
    const value = result.check.value;
    const transactionId = get(value, "data", "transaction_id");
    const externalId = get(value, "data", "external_id");
    if (operation === "gift_balance_inquiry" && typeof transactionId === "string") {
      this.ids.transaction_ids.push(this.clean(transactionId));
      if (typeof externalId === "string") this.ids.external_ids.push(this.clean(externalId));
    }
    const metaRequestId = get(value, "meta", "request_id");
    if (operation === "token" && typeof metaRequestId === "string")
      this.ids.meta_request_ids.push(this.clean(metaRequestId));
    for (const event of events) this.fingerprints.add(event.fingerprint);
    return record;
  }

  private noteToken(grant: TokenGrant, client: CertificationClient, purpose: string): void {
    this.sending(grant.accessToken);
    const fingerprint = tokenFingerprint(grant.accessToken);
    this.fingerprints.add(fingerprint);
    this.ledger.tokens.push({
      fingerprint,
      client_id: client.clientId,
      purpose,
      scope: this.clean(grant.scope),
      expires_in: grant.expiresIn,
      issued_at: new Date(this.settings.now()).toISOString(),
    });
  }

  /** The client a token broker uses: the environment's client, with every token exchange recorded here. */
  recordingClient(client: CertificationClient, purpose: string): CardApiClient {
    const base = this.env.client;
    return {
      ...base,
      requestToken: async (credentials) => {
        this.sending(credentials.clientSecret);
        const result = await base.requestToken(credentials);
        this.record("token", result);
        if (result.grant) this.noteToken(result.grant, client, purpose);
        return result;
      },
    };
  }

  /**
   * `client`'s credentials against the run's environment as a call context (lib/server/token/call-context),
   * every token exchange recorded for `purpose`; `place` keeps its token (the run's one token for the primary
   * client, a fresh one of its own otherwise).
   */
  callContext(client: CertificationClient, purpose: string, place: TokenPlace = memoryToken()): CallContext {
    const { name, authUrl, baseUrl, transport } = this.env;
    const environment = { name, authUrl, baseUrl, transport };
    const { clientId, clientSecret } = client;
    return {
      environment,
      client: this.recordingClient(client, purpose),
      broker: this.ledger.broker,
      credentials: bound({ source: "server", clientId, clientSecret }, environment),
      shown: { source: "server", client_id: clientId },
      current: place.current,
      keep: place.keep,
    };
  }

  /** The run's one token (API specification §5.7) in a call context: the ledger holds it across cases. */
  private runCallContext(): CallContext {
    const { ledger } = this;
    return this.callContext(this.profile.primary, "session", {
      current: () => ledger.sessionToken,
      keep: (token) => {
        ledger.sessionToken = token;
      },
    });
  }

  // ---------- tokens ----------

  /** A token request for `client`, recorded; returns the token when one was issued. */
  async requestToken(client: CertificationClient, purpose = this.caseId) {
    this.sending(client.clientSecret);
    const result = await this.env.client.requestToken(client);
    const record = this.record("token", result);
    if (result.grant) this.noteToken(result.grant, client, purpose);
    return { result, record, grant: result.grant };
  }

  /**
   * The run's first token, requested outright (its token response is TOK-01's and VER-01's evidence), kept in
   * the ledger; a refusal stops the case.
   */
  private async acquireRunToken(call: CallContext): Promise<AccessToken> {
    const { ledger } = this;
    ledger.sessionTokenRequests.acquired += 1;
    const obtained = await ledger.broker.requestNow({ ...call, client: this.env.client });
    const record = this.record("token", obtained);
    if (obtained.grant) this.noteToken(obtained.grant, this.profile.primary, "session");
    ledger.sessionTokenResult = {
      record,
      value: obtained.check.value,
      status: obtained.exchange.response.status,
    };
    if (!obtained.token) {
      this.checks.add(
        "the token endpoint issues a token to the run's client",
        "a token",
        `HTTP ${obtained.exchange.response.status} without a usable token`,
        false,
        [record.id],
      );
      throw new CaseStopped();
    }
    this.sending(obtained.token.accessToken);
    call.keep(obtained.token);
    return obtained.token;
  }

  /**
   * The run's one token for the primary client (API specification §5.7): requested once, then kept fresh by the console's
   * own broker, renewals recorded.
   */
  async sessionToken(): Promise<AccessToken> {
    const call = this.runCallContext();
    if (!call.current()) return this.acquireRunToken(call);
    const ensured = await call.broker.ensure(call, call.current());
    call.keep(ensured.token);
    if (ensured.event) {
      this.ledger.sessionTokenRequests.renewed += 1;
      this.pendingEvents.push(ensured.event);
    }
    this.sending(ensured.token.accessToken);
    this.fingerprints.add(tokenFingerprint(ensured.token.accessToken));
    return ensured.token;
  }

  // ---------- card calls (each recorded) ----------

  async gift(options: {
    token: string | null;
    requestId?: string;
    cardNumber?: string;
    events?: TokenEvent[];
  }) {
    const requestId = options.requestId ?? randomUUID();
    this.sending(options.token);
    if (options.token) this.fingerprints.add(tokenFingerprint(options.token));
    const result = await this.env.client.giftBalanceInquiry({
      accessToken: options.token,
      requestId,
      card: this.card(options.cardNumber),
    });
    const record = this.record("gift_balance_inquiry", result, { requestId, events: options.events });
    return { result, record, requestId, status: result.exchange.response.status, body: result.check.value };
  }

  async balance(options: {
    token: string | null;
    cardNumber?: string;
    requestId?: string;
    client?: CardApiClient;
    events?: TokenEvent[];
  }) {
    const client = options.client ?? this.env.client;
    this.sending(options.token);
    if (options.token) this.fingerprints.add(tokenFingerprint(options.token));
    const result = await client.balanceInquiry({
      accessToken: options.token,
      card: this.card(options.cardNumber),
      ...(options.requestId === undefined ? {} : { requestId: options.requestId }),
    });
    const record = this.record("balance_inquiry", result, {
      requestId: options.requestId,
      events: options.events,
      client,
    });
    return { result, record, status: result.exchange.response.status, body: result.check.value };
  }

  async lookup(token: string, requestId: string) {
    this.sending(token);
    const result = await this.env.client.transactionByRequestId({ accessToken: token, requestId });
    const record = this.record("transaction_lookup", result, { requestId });
    return { result, record, status: result.exchange.response.status, body: result.check.value };
  }

  /** Requires the lookup path (API specification §4.3.3; its real path is not shown in the specification). */
  requireLookup(): void {
    if (!this.profile.transactionLookup) {
      this.notApplicable(
        "The specification does not show the path of Lookup Transaction by Request Id; the console uses " +
          "/transaction/v1/transactions/request-id/{id}. Set transaction_lookup: true in the profile when " +
          "this upstream serves it.",
      );
    }
  }
}

/** A case cannot go on (a check already failed and says why). */
export class CaseStopped extends Error {
  override name = "CaseStopped";
}

/** A copy of a token that the upstream must reject: one signature character changed. */
export function tamperToken(token: string): string {
  const lastDot = token.lastIndexOf(".");
  // The middle of the signature: its last character may carry only padding bits.
  const index = lastDot >= 0 && token.length - lastDot > 8 ? lastDot + 4 : Math.floor(token.length / 2);
  const original = token[index] ?? "A";
  const replacement = original === "A" ? "B" : "A";
  return token.slice(0, index) + replacement + token.slice(index + 1);
}
