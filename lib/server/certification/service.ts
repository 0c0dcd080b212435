/**
 * What the certification routes do: start a run in the background with the session's (or server-held)
 * credentials, list runs, read one, hand out its signed bundle, publish the public key, verify an uploaded
 * bundle. One per process (and configuration); runs are kept in the database (./db-run-store.ts).
 *
 * Runs on the embedded sandbox take turns in this process (`queued` until the previous one ends): TOK-09
 * revokes every token the in-process sandbox issued, which would fail another run's cases mid-way. Users'
 * own sessions are not harmed by it: the console's token broker renews once after a 401 and retries.
 */
import "server-only";
import type { EnvironmentName } from "@/lib/shared/contracts";
import { randomUUID } from "node:crypto";
import type { PublicJwk } from "@/lib/shared/certification-schemas";
import { findEnvironment } from "@/lib/server/card-api/environments";
import { gatedClient } from "@/lib/server/card-api/gated-client";
import type { EnvironmentConfig, ServerConfig } from "@/lib/server/config";
import { ProfileFileError, readProfileFile } from "@/lib/server/config/certification";
import type { DatabaseHandle } from "@/lib/server/database";
import { countCertificationEvent, type ConsoleMetrics } from "@/lib/server/metrics";
import { ApiError } from "@/lib/server/util/errors";
import { logger } from "@/lib/server/util/logger";
import { generatedKeyLevel } from "@/lib/server/util/generated-key";
import type { SessionState } from "@/lib/server/session";
import { resolveCredentials } from "@/lib/server/token/credentials";
import {
  MAX_EXPIRY_WAIT_SECONDS,
  runView,
  type CertifiableEnvironment,
  type RunView,
  type StartRunInput,
  type VerifyResponse,
} from "@/lib/shared/certification-api";
import { consoleInfo, specificationInfo } from "./build-info";
import { selectedCaseIds } from "./catalogue";
import type { RunSettings } from "./context";
import { createDatabaseRunStore, type DatabaseRunStore, type StoredBundle } from "./db-run-store";
import {
  certificationEnvironment,
  EnvironmentNotConfiguredError,
  type CertificationUpstream,
} from "./environment";
import { buildEvidenceBundle } from "./evidence/bundle";
import { verifyUploadedBundle } from "./evidence/signer";
import {
  embeddedProfile,
  ProfileError,
  resolveProfile,
  type CertificationClient,
  type CertificationProfile,
} from "./profile";
import { runEnvironmentOf, startCertification, type RunOptions } from "./runner";
import { loadEvidenceSigningKey, type EvidenceSigningKey } from "./signing-key";
import type { RunState, RunSummary } from "@/lib/shared/certification-contract";
import type { ExchangeRecord } from "@/lib/shared/contracts";

export interface Operator {
  id: string;
  name: string;
}

/**
/**
 * The ended runs one user's direct starts keep (their signed bundles with them); older ones are deleted when a new
 * one ends. With CERTIFICATION_RUNS_PER_HOUR this bounds what a user's runs can make the database hold.
 */
const RUNS_KEPT_PER_USER = 100;

/**
 * How often the owning process marks its runs alive: this many times within CERTIFICATION_RUN_STALE_SECONDS,
 * after which another reader gives up on them, so one late beat is no death.
 */
const BEATS_PER_STALENESS = 6;

function environmentUnavailable(message: string): ApiError {
  return new ApiError("environment_unavailable", message);
}

/**
 * The test data for a real upstream: CERTIFICATION_PROFILE (checked by lib/server/config at start) names the same JSON
 * profile file that `npm run certify -- --profile` reads (cards, extra clients; secrets by environment variable
 * name). It is read again at each run, so its cards can change without a restart.
 */
function profileFor(
  config: ServerConfig,
  environment: EnvironmentConfig,
  primary: CertificationClient,
  env: Record<string, string | undefined>,
): CertificationProfile {
  if (environment.transport === "embedded") return { ...embeddedProfile(config), primary };
  const file = config.certification.profilePath;
  if (!file) {
    throw environmentUnavailable(
      `No certification test data for ${environment.name}: set CERTIFICATION_PROFILE on the server to a ` +
        "profile file with the cards your API operator issued (see docs/guide/tester.md).",
    );
  }
  let profileFile;
  try {
    profileFile = readProfileFile(file);
  } catch (error) {
    if (error instanceof ProfileFileError) {
      throw environmentUnavailable(`The server's CERTIFICATION_PROFILE file ${error.message}.`);
    }
    throw error;
  }
  // The run's client is the session's (or the server's): never the profile's primary.
  const { primary: _ignored, ...withoutPrimary } = profileFile;
  return {
    ...resolveProfile({ ...config, serverCredentials: primary }, environment, withoutPrimary, env),
    primary,
  };
}

/** A run about to start, checked: where it runs, with which test data and client, and which cases. */
interface RunPlan {
  environment: RunOptions["environment"];
  profile: CertificationProfile;
  caseIds: string[];
}

/** The run as stored before it starts (`queued` until its turn). */
function queuedRun(plan: RunPlan, input: StartRunInput, operator: Operator): RunState {
  return {
    id: randomUUID(),
    status: "queued",
    environment: runEnvironmentOf(plan.environment),
    client_id: plan.profile.primary.clientId,
    operator: operator.name,
    operator_id: operator.id,
    allow_production_gift: input.allow_production_gift ?? false,
    case_ids: plan.caseIds,
    total: plan.caseIds.length,
    done: 0,
    started_at: new Date().toISOString(),
    results: [],
    exchanges: [],
    tokens: [],
  };
}

export class CertificationService {
  /** How to cancel each run this process owns (queued or running). */
  private readonly cancels = new Map<string, AbortController>();
  /** Runs this process owns (queued or running): their heartbeat. */
  private readonly active = new Set<string>();
  /** The embedded sandbox's runs, one after another. */
  private embeddedTurn: Promise<unknown> = Promise.resolve();
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly config: ServerConfig,
    readonly store: DatabaseRunStore,
    private readonly key: EvidenceSigningKey,
    /** The root's upstream clients and metrics. */
    private readonly runtime: CertificationRuntime,
    private readonly env: Record<string, string | undefined> = process.env,
  ) {}

  get publicKey(): PublicJwk {
    return this.key.publicJwk;
  }

  /**
   * Starts a run in the background with `caller`'s credentials for the run's environment (the session's, else
   * the server's, exactly as the inquiry routes resolve them); the session itself is only read.
   */
  async start(
    caller: { readonly state: Pick<SessionState, "credentials"> },
    input: StartRunInput,
    operator: Operator,
    onExchange?: (...args: [...Parameters<NonNullable<RunSettings["onExchange"]>>, runId: string]) => void,
    /** Called once the run is known to be startable, before it is stored: the caller's limit of runs (429). */
    admit?: () => Promise<void>,
  ): Promise<{ id: string; finished: Promise<void> }> {
    const plan = this.plan(caller.state, input);
    await admit?.();
    const queued = queuedRun(plan, input, operator);
    await this.store.save(queued);
    this.track(queued.id);
    const controller = new AbortController();
    this.cancels.set(queued.id, controller);
    const execute = () =>
      this.execute(queued, controller, {
        signal: controller.signal,
        runId: queued.id,
        environment: this.metered(plan.environment, operator.id, controller.signal),
        profile: plan.profile,
        operator: operator.name,
        operatorId: operator.id,
        clientId: plan.profile.primary.clientId,
        allowProductionGift: queued.allow_production_gift,
        renewSkewSeconds: this.config.tokenRenewSkewSeconds,
        // Only when asked: AUTH-03 then waits for the short-lived client's token to expire (bounded).
        maxExpiryWaitMs: input.wait_for_token_expiry ? MAX_EXPIRY_WAIT_SECONDS * 1000 : 0,
        caseIds: plan.caseIds,
        store: this.store,
        onExchange: onExchange && ((record, caseId) => onExchange(record, caseId, queued.id)),
        onEvent: (event) => countCertificationEvent(this.runtime.metrics, event),
      });
    let finished: Promise<void>;
    if (plan.environment.transport === "embedded") {
      finished = this.embeddedTurn.then(execute);
      this.embeddedTurn = finished.catch(() => undefined);
    } else {
      finished = execute();
    }
    // Settles when the run has ended and its bundle is signed (monitors judge it then); never rejects.
    return { id: queued.id, finished: finished.catch(() => undefined) };
  }

  /**
   * A real upstream's calls count toward the operator's RATE_LIMIT_PER_MINUTE as their own calls do (a run pauses
   * at the limit, never fails); the embedded sandbox is in this process and protects nothing by it.
   */
  private metered(
    environment: RunOptions["environment"],
    operatorId: string,
    signal: AbortSignal,
  ): RunOptions["environment"] {
    const { upstreamCall } = this.runtime;
    if (environment.transport !== "http" || !upstreamCall) return environment;
    const before = () => upstreamCall(operatorId, signal);
    return {
      ...environment,
      client: gatedClient(environment.client, before),
      ...(environment.sibling
        ? { sibling: { ...environment.sibling, client: gatedClient(environment.sibling.client, before) } }
        : {}),
    };
  }

  /** What a run will use, checked before anything is stored: its environment, test data, client and cases. */
  private plan(state: Pick<SessionState, "credentials">, input: StartRunInput): RunPlan {
    const { config } = this;
    const environmentConfig = findEnvironment(config, input.environment);
    if (!environmentConfig) {
      throw environmentUnavailable(
        `Environment ${input.environment} is not configured on this server (configured: ` +
          `${config.environments.map((item) => item.name).join(", ")}).`,
      );
    }
    const caseIds = selectedCaseIds(input.cases);
    const resolved = resolveCredentials(state, config, environmentConfig);
    if (typeof resolved === "string") throw new ApiError("no_credentials", resolved);
    const { clientId, clientSecret } = resolved;
    try {
      return {
        profile: profileFor(config, environmentConfig, { clientId, clientSecret }, this.env),
        environment: certificationEnvironment(config, this.runtime.upstream, input.environment),
        caseIds,
      };
    } catch (error) {
      if (error instanceof ProfileError || error instanceof EnvironmentNotConfiguredError) {
        throw environmentUnavailable(error.message);
      }
      throw error;
    }
  }

  /** Runs a queued run (unless it was cancelled while queued), then signs its bundle. */
  private async execute(queued: RunState, controller: AbortController, options: RunOptions): Promise<void> {
    const { id } = queued;
    try {
      // Cancelled while queued: nothing ran; the bundle below signs the empty, cancelled run.
      if (!controller.signal.aborted) await (await startCertification(options)).finished;
    } catch (error) {
      logger.error(
        { run_id: id, error: error instanceof Error ? error.message : String(error) },
        "certification run broke off",
      );
    } finally {
      this.untrack(id);
      this.cancels.delete(id);
    }
    await this.bundle(id).catch((error: unknown) =>
      logger.error(
        { run_id: id, error: error instanceof Error ? error.message : String(error) },
        "certification evidence bundle not built",
      ),
    );
    const operatorId = queued.operator_id ?? queued.operator;
    await this.store
      .pruneOperatorRuns(operatorId, RUNS_KEPT_PER_USER)
      .catch((error: unknown) =>
        logger.warn(
          { operator_id: operatorId, error: error instanceof Error ? error.message : String(error) },
          "old certification runs not pruned",
        ),
      );
  }

  /**
   * Which configured environments a run can use: a real upstream needs the operator's test data
   * (CERTIFICATION_PROFILE), read here as a run would, so the form refuses before a confirmation, not after.
   */
  environments(): CertifiableEnvironment[] {
    // Secrets are the session's at run time; a placeholder stands for them: only the test data is judged.
    const placeholder = { clientId: "-", clientSecret: "-" };
    return this.config.environments.map((environment) => {
      try {
        profileFor(this.config, environment, placeholder, this.env);
        return { name: environment.name, certifiable: true };
      } catch (error) {
        if (error instanceof ApiError || error instanceof ProfileError) {
          return { name: environment.name, certifiable: false, reason: error.message };
        }
        throw error;
      }
    });
  }

  /** The newest runs; with `mayOpen`, only those in an environment it allows. */
  async list(mayOpen: (environment: EnvironmentName) => boolean = () => true): Promise<RunSummary[]> {
    return (await this.store.list(100)).filter((run) => mayOpen(run.environment));
  }

  /** The environment a run acted on (404 for no such run): routes check the caller's role there first. */
  async environmentOf(id: string): Promise<EnvironmentName> {
    return (await this.run(id)).environment.name;
  }

  async view(id: string): Promise<RunView> {
    return runView(await this.run(id));
  }

  /**
   * Cancels a queued or running run this instance owns: the case under way finishes, no other case runs, the
   * run ends `cancelled` and its bundle signs what ran. An ended run is left as it is (cancel is idempotent).
   */
  async cancel(id: string): Promise<RunView> {
    const run = await this.run(id);
    if (run.status !== "queued" && run.status !== "running") return runView(run);
    const controller = this.cancels.get(id);
    if (!controller) {
      throw new ApiError(
        "run_not_finished",
        "This run is under way on another console instance; it can be cancelled only there.",
      );
    }
    controller.abort();
    if (run.status === "queued") {
      await this.store.save({ ...run, status: "cancelled", finished_at: new Date().toISOString() });
    }
    return this.view(id);
  }

  /**
   * Cancels every queued or running run `operatorId` started (a suspension, or an admin ending all their sessions):
   * at once here, at their owner's next heartbeat elsewhere. Returns how many.
   */
  async cancelOperatorRuns(operatorId: string): Promise<number> {
    const ids = await this.store.cancelOperatorRuns(operatorId, new Date());
    for (const id of ids) this.cancels.get(id)?.abort();
    return ids.length;
  }

  /** One exchange of a run, as stored (masked and redacted when it was recorded). */
  async exchange(id: string, exchangeId: string): Promise<ExchangeRecord> {
    const record = (await this.run(id)).exchanges.find((exchange) => exchange.id === exchangeId);
    if (!record) throw new ApiError("not_found", `Run ${id} has no exchange ${JSON.stringify(exchangeId)}.`);
    return record;
  }

  private async run(id: string): Promise<RunState> {
    const run = /^[0-9a-f-]{36}$/.test(id) ? await this.store.get(id) : undefined;
    if (!run) throw new ApiError("not_found", `There is no certification run ${JSON.stringify(id)}.`);
    return run;
  }

  /** The signed bundle of an ended run: built once from what the database holds, then always the same bytes. */
  async bundle(id: string): Promise<StoredBundle> {
    const stored = await this.store.getBundle(id);
    if (stored) return stored;
    const run = await this.run(id);
    if (run.status === "queued" || run.status === "running") {
      throw new ApiError(
        "run_not_finished",
        `Run ${id} is ${run.status} (${run.done} of ${run.total} cases): its evidence is signed when it ends.`,
      );
    }
    const built = await buildEvidenceBundle({
      run,
      key: this.key,
      console: consoleInfo(this.config.certification),
      specification: specificationInfo(this.config.certification),
    });
    return this.store.saveBundle(id, { zip: built.zip, fileName: built.fileName });
  }

  /** Intact, and who signed it; throws ApiError bundle_too_large (413) for a bundle past the reader's bounds. */
  verify(zip: Uint8Array): Promise<VerifyResponse> {
    return verifyUploadedBundle(zip, { own: this.key.kid, trusted: this.config.certification.trustedKeys });
  }

  private track(id: string): void {
    this.active.add(id);
    this.heartbeat ??= setInterval(
      () => {
        this.store
          .heartbeat([...this.active])
          // A run ended elsewhere (cancelled for a suspension on another instance) stops here too.
          .then((alive) => {
            for (const id of this.active) if (!alive.has(id)) this.cancels.get(id)?.abort();
          })
          .catch((error: unknown) =>
            logger.warn(
              { error: error instanceof Error ? error.message : String(error) },
              "run heartbeat failed",
            ),
          );
      },
      (this.config.certification.runStaleSeconds * 1000) / BEATS_PER_STALENESS,
    );
    this.heartbeat.unref?.();
  }

  private untrack(id: string): void {
    this.active.delete(id);
    if (this.active.size === 0 && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }
}

/** What the service needs from the process, handed in by the composition root (lib/server/root). */
export interface CertificationRuntime {
  upstream: CertificationUpstream;
  metrics: ConsoleMetrics;
  /** Waits for, then spends, one upstream call of `userId` (RATE_LIMIT_PER_MINUTE); none counted without it. */
  upstreamCall?: (userId: string, signal: AbortSignal) => Promise<void>;
}

/** The certification service over the root's database handle (PGlite refuses a second opener of DATA_DIR). */
export async function createCertificationService(
  config: ServerConfig,
  handle: DatabaseHandle,
  runtime: CertificationRuntime,
): Promise<CertificationService> {
  const store = createDatabaseRunStore({
    db: handle.db,
    staleAfterMs: config.certification.runStaleSeconds * 1000,
  });
  // PGlite is single-process: a run still marked running was left by a process that died.
  if (handle.kind === "pglite") await store.interruptAllActive();
  const key = await loadEvidenceSigningKey({
    env: { EVIDENCE_SIGNING_KEY: config.evidenceSigningKey, DATA_DIR: config.dataDir },
    warn: (message) => logger[generatedKeyLevel(config.databaseUrl)]({ component: "certification" }, message),
  });
  return new CertificationService(config, store, key, runtime);
}
