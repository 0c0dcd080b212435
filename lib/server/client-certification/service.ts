/**
 * Integration certification of a client application (DESIGN.md §11): registers a fresh sandbox client per
 * certification, arms the steps' behaviours for that client only, keeps the calls the sandbox recorded, judges
 * them, and signs the evidence. Every state lives in the database, so any instance answers any call.
 */
import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { ApiError } from "@/lib/server/errors";
import type { Database } from "@/lib/server/db";
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
import { ACTIVE_STATUSES, createClientCertificationStore, type CertificationRow } from "./store";

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

export function createClientCertificationService({ db, now = Date.now }: ClientCertificationDeps) {
  const store = createClientCertificationStore(db);

  async function row(id: string): Promise<CertificationRow> {
    const found = /^[0-9a-f-]{36}$/.test(id) ? await store.get(id) : undefined;
    if (!found) throw new ApiError("not_found", `There is no client certification ${JSON.stringify(id)}.`);
    return expireIfOverdue(found);
  }

  /** A certification not finished 2 h after its start is judged as it stands and set expired. */
  async function expireIfOverdue(found: CertificationRow): Promise<CertificationRow> {
    if (!isActive(found.status) || found.expiresAt.getTime() > now()) return found;
    await close(found, "expired");
    return (await store.get(found.id)) ?? found;
  }

  async function close(found: CertificationRow, status: "done" | "expired"): Promise<void> {
    const checks = await judge(found);
    const at = new Date(now());
    await store.saveChecks(found.id, checks, {
      status,
      finishedAt: at,
      revokedBefore: at,
      currentStep: null,
      steps: endStep(found, at),
      delayArmed: false,
      rateLimitArmed: false,
    });
  }

  async function judge(found: CertificationRow): Promise<ClientCheckResult[]> {
    if (!isActive(found.status) && found.checks) return found.checks as ClientCheckResult[];
    const calls = await store.calls(found.id);
    const armedAt: Partial<Record<ClientStepId, number>> = {};
    for (const [step, times] of Object.entries(found.steps)) {
      if (times.armed_at) armedAt[step as ClientStepId] = Date.parse(times.armed_at);
    }
    return judgeCalls({ calls: calls.map((call) => call.facts), armedAt });
  }

  async function view(found: CertificationRow): Promise<ClientCertificationView> {
    const calls = await store.calls(found.id);
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
      checks: await judge(found),
      exchanges: calls.map((call) => call.record),
    };
  }

  return {
    store,

    async start(operator: Operator, origin: string): Promise<StartedClientCertification> {
      const secret = randomBytes(32).toString("base64url");
      const started = new Date(now());
      const id = randomUUID();
      await store.insert({
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
      return { ...(await view(await row(id))), client_secret: secret };
    },

    async list(): Promise<ClientCertificationSummary[]> {
      const rows = await Promise.all((await store.list()).map(expireIfOverdue));
      return Promise.all(
        rows.map(async (found) => ({
          id: found.id,
          status: found.status as ClientCertificationStatus,
          client_id: found.clientId,
          operator: found.operator,
          started_at: found.startedAt.toISOString(),
          finished_at: found.finishedAt?.toISOString() ?? null,
          verdicts: (await judge(found)).map((check) => ({ id: check.id, verdict: check.verdict })),
        })),
      );
    },

    async get(id: string): Promise<ClientCertificationView> {
      return view(await row(id));
    },

    /** Arms `step` (ending the one before) with its sandbox behaviour for this client only. */
    async arm(id: string, step: ClientStepId): Promise<ClientCertificationView> {
      const found = await row(id);
      assertActive(found);
      const at = new Date(now());
      const steps = endStep(found, at);
      steps[step] = { armed_at: at.toISOString() };
      const updated = await store.updateActive(id, {
        status: "running",
        currentStep: step,
        steps,
        delayArmed: step === "timeout",
        rateLimitArmed: step === "rate_limited",
        ...(step === "revoked" ? { revokedBefore: at } : {}),
      });
      if (!updated) assertActive({ ...found, status: "done" });
      return view(await row(id));
    },

    async finish(id: string): Promise<ClientCertificationView> {
      const found = await row(id);
      assertActive(found);
      await close(found, "done");
      return view(await row(id));
    },

    /** Ends every overdue certification (the background sweep); returns how many. */
    async expireOverdue(): Promise<number> {
      const overdue = (await store.list(500)).filter(
        (found) => isActive(found.status) && found.expiresAt.getTime() <= now(),
      );
      for (const found of overdue) await close(found, "expired");
      return overdue.length;
    },

    /** The port the embedded sandbox reaches this certification's clients through. */
    port(): SandboxClientPort {
      return createPort(store, now);
    },
  };
}

export type ClientCertificationService = ReturnType<typeof createClientCertificationService>;

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
