/**
 * Integration certification of a client application (DESIGN.md §11): registers a fresh sandbox client per
 * certification, arms the steps' behaviours for that client only, keeps the calls the sandbox recorded, judges
 * them, and signs the evidence. Every state lives in the database, so any instance answers any call.
 */
import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { ApiError } from "@/lib/server/util/errors";
import type { Database } from "@/lib/server/database";
import {
  CLIENT_STEPS,
  type ClientCertificationStatus,
  type ClientCertificationSummary,
  type ClientCertificationView,
  type ClientCheckResult,
  type ClientStepId,
  type StartedClientCertification,
} from "@/lib/shared/client-certification-contract";
import { TRANSACTIONS_SCOPE } from "@/lib/shared/operations";
import type { ArmedBehaviour, RegisteredClient, SandboxCall, SandboxClientPort } from "@/lib/sandbox";
import { keepCall, sha256Hex } from "./facts";
import { judgeCalls } from "./judge";
import {
  ACTIVE_STATUSES,
  createClientCertificationStore,
  type CertificationRow,
  type ClientCertificationStore,
} from "./store";

/** Client ids of certification clients start with this: other clients never cost a database query. */
export const CERTIFICATION_CLIENT_PREFIX = "cert-";
export const CERTIFICATION_LIFETIME_MS = 2 * 60 * 60 * 1000;
export const CERTIFICATION_TOKEN_SECONDS = 7200;

export interface Operator {
  id: string;
  name: string;
}

export interface ClientCertificationDeps {
  db: Database;
  now?: () => number;
}

const isActive = (status: string) => (ACTIVE_STATUSES as readonly string[]).includes(status);

export function createClientCertificationService(deps: ClientCertificationDeps): ClientCertificationService {
  return new ClientCertificationService(deps.db, deps.now ?? Date.now);
}

/** Every method reads and writes the database only: no state of its own, so any instance serves any call. */
export class ClientCertificationService {
  readonly store: ClientCertificationStore;

  constructor(
    db: Database,
    private readonly now: () => number,
  ) {
    this.store = createClientCertificationStore(db);
  }

  async start(operator: Operator, origin: string): Promise<StartedClientCertification> {
    const secret = randomBytes(32).toString("base64url");
    const started = new Date(this.now());
    const id = randomUUID();
    await this.store.insert({
      id,
      clientId: `${CERTIFICATION_CLIENT_PREFIX}${randomBytes(6).toString("hex")}`,
      secretSha256: sha256Hex(secret),
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
    });
    return { ...(await this.view(await this.row(id))), client_secret: secret };
  }

  async list(): Promise<ClientCertificationSummary[]> {
    const rows = await Promise.all((await this.store.list()).map((found) => this.expireIfOverdue(found)));
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

  async get(id: string): Promise<ClientCertificationView> {
    return this.view(await this.row(id));
  }

  /** Arms `step` (ending the one before) with its sandbox behaviour for this client only. */
  async arm(id: string, step: ClientStepId): Promise<ClientCertificationView> {
    const found = await this.row(id);
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
    return this.view(await this.row(id));
  }

  async finish(id: string): Promise<ClientCertificationView> {
    const found = await this.row(id);
    assertActive(found);
    await this.close(found, "done");
    return this.view(await this.row(id));
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
    return createPort(this.store, this.now);
  }

  private async row(id: string): Promise<CertificationRow> {
    const found = /^[0-9a-f-]{36}$/.test(id) ? await this.store.get(id) : undefined;
    if (!found) throw new ApiError("not_found", `There is no client certification ${JSON.stringify(id)}.`);
    return this.expireIfOverdue(found);
  }

  /** A certification not finished 2 h after its start is judged as it stands and set expired. */
  private async expireIfOverdue(found: CertificationRow): Promise<CertificationRow> {
    if (!isActive(found.status) || found.expiresAt.getTime() > this.now()) return found;
    await this.close(found, "expired");
    return (await this.store.get(found.id)) ?? found;
  }

  private async close(found: CertificationRow, status: "done" | "expired"): Promise<void> {
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
  private async judge(found: CertificationRow): Promise<ClientCheckResult[]> {
    if (!isActive(found.status) && found.checks) return found.checks as ClientCheckResult[];
    const calls = await this.store.calls(found.id);
    const armedAt: Partial<Record<ClientStepId, number>> = {};
    for (const [step, times] of Object.entries(found.steps)) {
      if (times.armed_at) armedAt[step as ClientStepId] = Date.parse(times.armed_at);
    }
    return judgeCalls({ calls: calls.map((call) => call.facts), armedAt });
  }

  private async view(found: CertificationRow): Promise<ClientCertificationView> {
    const calls = await this.store.calls(found.id);
    return {
      id: found.id,
      status: found.status as ClientCertificationStatus,
      environment: "embedded",
      client_id: found.clientId,
      auth_url: found.authUrl,
      base_url: found.baseUrl,
      operator: found.operator,
      started_at: found.startedAt.toISOString(),
      expires_at: found.expiresAt.toISOString(),
      finished_at: found.finishedAt?.toISOString() ?? null,
      current_step: (found.currentStep as ClientStepId | null) ?? null,
      steps: CLIENT_STEPS.map((step) => {
        const times = found.steps[step.id] ?? {};
        const status = times.ended_at ? "ended" : times.armed_at ? "armed" : "pending";
        return { ...step, status, ...times };
      }),
      checks: await this.judge(found),
      exchanges: calls.map((call) => call.record),
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
): SandboxClientPort {
  const lookup = async (clientId: string) =>
    clientId.startsWith(CERTIFICATION_CLIENT_PREFIX) ? store.byClientId(clientId) : undefined;
  const registered = (found: CertificationRow): RegisteredClient => ({
    clientId: found.clientId,
    scopes: [TRANSACTIONS_SCOPE],
    expiresIn: CERTIFICATION_TOKEN_SECONDS,
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
      const kept = keepCall(call, found.secretSha256, (found.currentStep as ClientStepId | null) ?? null);
      await store.addCall(found.id, kept);
    },
  };
}
