/**
 * Integration certification of a client application (docs/design.md §11): registers a fresh sandbox client per
 * certification, arms the steps' behaviours for that client only, keeps the calls the sandbox recorded, judges
 * them, and signs the evidence. Every state lives in the database, so any instance answers any call.
 */
import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { ApiError } from "@/lib/server/util/errors";
import type { Database } from "@/lib/server/database";
import {
  type ClientCertificationStatus,
  type ClientCertificationSummary,
  type ClientCertificationView,
  type ClientCheckResult,
  type ClientStepId,
  type StartedClientCertification,
} from "@/lib/shared/client-certification-contract";
import { TRANSACTIONS_SCOPE } from "@/lib/shared/operations";
import type { ArmedBehaviour, RegisteredClient, SandboxCall, SandboxClientPort } from "@/lib/sandbox";
import { CERTIFICATION_CLIENT_PREFIX } from "./embedded-port";
import { keepCall, sha256Hex } from "./facts";
import { judgeCalls, type CallFacts } from "./judge";
import { createPlanStore, type PlanStore } from "./plan-store";
import { armPlan, endPlan, planCall, planResult, type PlanDeps } from "./plans";
import { summarizePlans } from "./plan-summary";
import { stepStates } from "./step-progress";
import { secretForms, type SecretForms } from "./secret-forms";
import { createSecretVault, type SecretVault } from "./secret-vault";
import {
  ACTIVE_STATUSES,
  MAX_KEPT_CALLS,
  createClientCertificationStore,
  type CertificationRow,
  type ClientCertificationStore,
} from "./store";

const CERTIFICATION_LIFETIME_MS = 2 * 60 * 60 * 1000;
const CERTIFICATION_TOKEN_SECONDS = 7200;

export interface Operator {
  id: string;
  name: string;
}

/** Who asks: a certification is theirs to see only when they started it, or they are an admin. */
export interface Viewer {
  id: string;
  admin: boolean;
}

/** A page of the call log: the calls kept after `after` (their `seq`), at most `limit`. */
export interface CallPage {
  after?: number;
  limit?: number;
}

export const DEFAULT_CALL_PAGE = 100;

/** How a certification is run: docs/design.md §11's steps, or fault plans (docs/design.md §14) against the client's timeout. */
export interface StartOptions {
  mode?: "steps" | "faults";
  timeoutMs?: number;
}

export interface ClientCertificationDeps {
  db: Database;
  /** AUDIT_HMAC_KEY: seals each client's secret so the recorded calls can be searched for it. */
  hmacKey: string;
  now?: () => number;
}

const isActive = (status: string) => (ACTIVE_STATUSES as readonly string[]).includes(status);

export function createClientCertificationService(deps: ClientCertificationDeps): ClientCertificationService {
  return new ClientCertificationService(deps.db, createSecretVault(deps.hmacKey), deps.now ?? Date.now);
}

/** Every method reads and writes the database only: no state of its own, so any instance serves any call. */
export class ClientCertificationService {
  readonly store: ClientCertificationStore;
  private readonly plans: PlanStore;
  /** One port per service: it coalesces the counting of refused token requests. */
  private sandboxPort: SandboxClientPort | undefined;

  constructor(
    db: Database,
    private readonly vault: SecretVault,
    private readonly now: () => number,
  ) {
    this.store = createClientCertificationStore(db);
    this.plans = createPlanStore(db);
  }

  private get planDeps(): PlanDeps {
    return { plans: this.plans, now: this.now };
  }

  async start(
    operator: Operator,
    origin: string,
    options: StartOptions = {},
  ): Promise<StartedClientCertification> {
    const secret = randomBytes(32).toString("base64url");
    const started = new Date(this.now());
    const id = randomUUID();
    await this.store.insert({
      id,
      clientId: `${CERTIFICATION_CLIENT_PREFIX}${randomBytes(6).toString("hex")}`,
      secretSha256: sha256Hex(secret),
      secretSealed: this.vault.seal(secret),
      status: "waiting",
      environment: "embedded",
      authUrl: `${origin}/sandbox`,
      baseUrl: `${origin}/sandbox`,
      operatorId: operator.id,
      operator: operator.name,
      currentStep: null,
      steps: {},
      revokedBefore: null,
      delayArmed: false,
      rateLimitArmed: false,
      startedAt: started,
      expiresAt: new Date(started.getTime() + CERTIFICATION_LIFETIME_MS),
      finishedAt: null,
      checks: null,
      mode: options.mode ?? "steps",
      clientTimeoutMs: options.timeoutMs ?? 3000,
    });
    return { ...(await this.view(await this.row(id))), client_secret: secret };
  }

  /** The viewer's own, newest first; an admin's list holds everyone's. */
  async list(viewer: Viewer): Promise<ClientCertificationSummary[]> {
    const own = await this.store.list(50, viewer.admin ? undefined : viewer.id);
    const rows = await Promise.all(own.map((found) => this.expireIfOverdue(found)));
    return Promise.all(
      rows.map(async (found) => ({
        id: found.id,
        status: found.status as ClientCertificationStatus,
        client_id: found.clientId,
        operator: found.operator,
        started_at: found.startedAt.toISOString(),
        finished_at: found.finishedAt?.toISOString() ?? null,
        verdicts: (await this.judge(found)).map((check) => ({ id: check.id, verdict: check.verdict })),
      })),
    );
  }

  /** Status, steps, checks and a page of the call log (every call kept, by default). */
  async get(id: string, viewer: Viewer, page: CallPage = {}): Promise<ClientCertificationView> {
    return this.view(await this.row(id, viewer), page);
  }

  /** Arms `step` (ending the one before) with its sandbox behaviour for this client only. */
  async arm(
    id: string,
    step: ClientStepId,
    viewer: Viewer,
    page: CallPage = {},
  ): Promise<ClientCertificationView> {
    const found = await this.row(id, viewer);
    assertActive(found);
    const at = new Date(this.now());
    const steps = endStep(found, at);
    steps[step] = { armed_at: at.toISOString() };
    const updated = await this.store.updateActive(id, {
      status: "running",
      currentStep: step,
      steps,
      delayArmed: step === "timeout",
      rateLimitArmed: step === "rate_limited",
      ...(step === "revoked" ? { revokedBefore: at } : {}),
    });
    // Another instance finished it in between.
    if (!updated) assertActive({ ...found, status: "done" });
    return this.view(await this.row(id), page);
  }

  /** Arms a fault plan for this certification's client only, ending (and judging) the one before. */
  async armPlan(
    id: string,
    code: string,
    viewer: Viewer,
    reproducerOf: string | null = null,
  ): Promise<{ plan_id: string }> {
    const found = await this.row(id, viewer);
    assertActive(found);
    const armed = await armPlan(this.planDeps, found, code, reproducerOf);
    await this.store.updateActive(id, { status: "running" });
    return armed;
  }

  /** Ends a plan and judges it on its own calls; `exitCode` is the application's, for the tolerant-reader check. */
  async endPlan(id: string, planId: string, viewer: Viewer, exitCode: number | null) {
    const found = await this.row(id, viewer);
    const plan = await this.plans.get(found.id, planId);
    if (!plan)
      throw new ApiError("not_found", `Client certification ${id} has no plan ${JSON.stringify(planId)}.`);
    return endPlan(this.planDeps, found, plan, exitCode);
  }

  async finish(id: string, viewer: Viewer, page: CallPage = {}): Promise<ClientCertificationView> {
    const found = await this.row(id, viewer);
    assertActive(found);
    await this.close(found, "done");
    return this.view(await this.row(id), page);
  }

  /** Ends every overdue certification (the background sweep); returns how many. */
  async expireOverdue(): Promise<number> {
    const overdue = (await this.store.list(500)).filter(
      (found) => isActive(found.status) && found.expiresAt.getTime() <= this.now(),
    );
    for (const found of overdue) await this.close(found, "expired");
    return overdue.length;
  }

  /** The port the embedded sandbox reaches this service's certification clients through. */
  port(): SandboxClientPort {
    this.sandboxPort ??= createPort(this.store, this.now, (found) => this.formsOf(found), this.planDeps);
    return this.sandboxPort;
  }

  /** The encoded forms of the client's secret; null for a certification started before it was sealed. */
  private formsOf(found: CertificationRow): SecretForms | null {
    return found.secretSealed ? secretForms(this.vault.open(found.secretSealed)) : null;
  }

  /** Someone else's certification is not found, as if it did not exist (an admin sees every one). */
  private async row(id: string, viewer?: Viewer): Promise<CertificationRow> {
    const found = /^[0-9a-f-]{36}$/.test(id) ? await this.store.get(id) : undefined;
    const visible = found && (!viewer || viewer.admin || found.operatorId === viewer.id);
    if (!visible) throw new ApiError("not_found", `There is no client certification ${JSON.stringify(id)}.`);
    return this.expireIfOverdue(found);
  }

  /** A certification not finished 2 h after its start is judged as it stands and set expired. */
  private async expireIfOverdue(found: CertificationRow): Promise<CertificationRow> {
    if (!isActive(found.status) || found.expiresAt.getTime() > this.now()) return found;
    await this.close(found, "expired");
    return (await this.store.get(found.id)) ?? found;
  }

  private async close(found: CertificationRow, status: "done" | "expired"): Promise<void> {
    const current = found.currentPlanId ? await this.plans.get(found.id, found.currentPlanId) : undefined;
    if (current) await endPlan(this.planDeps, found, current, null);
    const checks = await this.judge(found);
    const at = new Date(this.now());
    await this.store.saveChecks(found.id, checks, {
      status,
      finishedAt: at,
      revokedBefore: at,
      currentStep: null,
      steps: endStep(found, at),
      delayArmed: false,
      rateLimitArmed: false,
    });
  }

  /** The verdicts kept at the end; while under way, judged now from the calls so far. */
  private async judge(found: CertificationRow, facts?: readonly CallFacts[]): Promise<ClientCheckResult[]> {
    if (!isActive(found.status) && found.checks) return found.checks as ClientCheckResult[];
    if (found.mode === "faults") return summarizePlans(await this.plans.list(found.id));
    const calls = facts ?? (await this.store.facts(found.id));
    const armedAt: Partial<Record<ClientStepId, number>> = {};
    for (const [step, times] of Object.entries(found.steps)) {
      if (times.armed_at) armedAt[step as ClientStepId] = Date.parse(times.armed_at);
    }
    return judgeCalls({ calls, armedAt });
  }

  private async view(found: CertificationRow, page: CallPage = {}): Promise<ClientCertificationView> {
    const limit = Math.min(page.limit ?? MAX_KEPT_CALLS, MAX_KEPT_CALLS);
    const exchanges = limit > 0 ? await this.store.records(found.id, page.after, limit) : [];
    const plans = found.mode === "faults" ? await this.plans.list(found.id) : [];
    const facts = await this.store.facts(found.id);
    return {
      id: found.id,
      status: found.status as ClientCertificationStatus,
      mode: found.mode === "faults" ? "faults" : "steps",
      client_timeout_ms: found.clientTimeoutMs,
      plans: await Promise.all(plans.map(async (plan) => planResult(plan, await this.plans.calls(plan.id)))),
      environment: "embedded",
      client_id: found.clientId,
      auth_url: found.authUrl,
      base_url: found.baseUrl,
      operator: found.operator,
      started_at: found.startedAt.toISOString(),
      expires_at: found.expiresAt.toISOString(),
      finished_at: found.finishedAt?.toISOString() ?? null,
      current_step: (found.currentStep as ClientStepId | null) ?? null,
      steps: stepStates(found.steps, facts),
      checks: await this.judge(found, facts),
      exchanges,
      calls: {
        kept: found.callsKept,
        dropped: found.callsDropped,
        max_kept: MAX_KEPT_CALLS,
        refused_token_requests: found.refusedTokenRequests,
        last_refused_at: found.lastRefusedAt?.toISOString() ?? null,
      },
    };
  }
}

function assertActive(found: CertificationRow): void {
  if (!isActive(found.status)) {
    throw new ApiError(
      "certification_finished",
      `Client certification ${found.id} is ${found.status}: start a new one to send more traffic.`,
    );
  }
}

function endStep(found: CertificationRow, at: Date): CertificationRow["steps"] {
  const steps = { ...found.steps };
  const current = found.currentStep;
  if (current && steps[current] && !steps[current].ended_at) {
    steps[current] = { ...steps[current], ended_at: at.toISOString() };
  }
  return steps;
}

function createPort(
  store: ReturnType<typeof createClientCertificationStore>,
  now: () => number,
  formsOf: (found: CertificationRow) => SecretForms | null,
  planDeps: PlanDeps,
): SandboxClientPort {
  const lookup = async (clientId: string) =>
    clientId.startsWith(CERTIFICATION_CLIENT_PREFIX) ? store.byClientId(clientId) : undefined;
  const registered = (found: CertificationRow): RegisteredClient => ({
    clientId: found.clientId,
    scopes: [TRANSACTIONS_SCOPE],
    expiresIn: CERTIFICATION_TOKEN_SECONDS,
    faultPlans: found.mode === "faults",
    // A finished or overdue certification's client is dead: every token it holds is refused.
    revokedBeforeMs:
      isActive(found.status) && found.expiresAt.getTime() > now()
        ? (found.revokedBefore?.getTime() ?? null)
        : Number.MAX_SAFE_INTEGER,
  });
  return {
    async authenticate(clientId, secret) {
      const found = await lookup(clientId);
      if (!found || !isActive(found.status) || found.expiresAt.getTime() <= now()) return undefined;
      return sha256Hex(secret) === found.secretSha256 ? registered(found) : undefined;
    },
    async find(clientId) {
      const found = await lookup(clientId);
      return found ? registered(found) : undefined;
    },
    async take(clientId, operation): Promise<ArmedBehaviour> {
      if (operation !== "gift_balance_inquiry" && operation !== "balance_inquiry") return "normal";
      if (await store.takeFlag(clientId, "rateLimitArmed")) return "rate_limited";
      if (operation === "gift_balance_inquiry" && (await store.takeFlag(clientId, "delayArmed")))
        return "delay";
      return "normal";
    },
    async record(call: SandboxCall) {
      const found = await lookup(call.clientId);
      if (!found || !isActive(found.status)) return;
      const kept = keepCall(call, formsOf(found), (found.currentStep as ClientStepId | null) ?? null);
      await store.addCall(found.id, kept);
    },
    refused: refusalCounter(store, now),
    async planCall(clientId, operation) {
      const found = await lookup(clientId);
      if (!found || !isActive(found.status)) return null;
      return planCall(planDeps, found, operation);
    },
  };
}

/**
 * Counts refused token requests with at most one UPDATE in flight per client: refusals arriving meanwhile are
 * added by the next one, so a flood costs the database a few writes, not one per request. What waits is only a
 * number per client being flooded right now.
 */
function refusalCounter(
  store: ClientCertificationStore,
  now: () => number,
): (clientId: string) => Promise<void> {
  const waiting = new Map<string, number>();
  const writing = new Set<string>();
  return async (clientId) => {
    if (!clientId.startsWith(CERTIFICATION_CLIENT_PREFIX)) return;
    waiting.set(clientId, (waiting.get(clientId) ?? 0) + 1);
    if (writing.has(clientId)) return;
    writing.add(clientId);
    try {
      for (let count = waiting.get(clientId) ?? 0; count > 0; count = waiting.get(clientId) ?? 0) {
        waiting.delete(clientId);
        await store.countRefused(clientId, count, new Date(now()));
      }
    } finally {
      writing.delete(clientId);
      waiting.delete(clientId);
    }
  };
}
