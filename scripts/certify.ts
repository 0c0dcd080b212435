/**
 * npm run certify -- --env <name> [--out DIR] [--cases ID,…] [--allow-production-gift]
 *                    [--profile FILE] [--operator NAME] [--max-expiry-wait SECONDS]
 *
 * Runs the certification catalogue headless with the server's configuration (the embedded sandbox
 * in-process), prints a line per case and a summary, writes the signed evidence bundle.
 * Exit 0: every applicable case passed; 1: a case failed; 2: usage or configuration error.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { ENVIRONMENTS, type EnvironmentName } from "@/lib/shared/contracts";
import { consoleInfo, specificationInfo } from "@/lib/server/certification/build-info";
import { describeCatalogue, UnknownCaseError } from "@/lib/server/certification/catalogue";
import {
  certificationEnvironment,
  EnvironmentNotConfiguredError,
} from "@/lib/server/certification/environment";
import { buildEvidenceBundle } from "@/lib/server/certification/evidence/bundle";
import { ProfileError, resolveProfile, type ProfileFile } from "@/lib/server/certification/profile";
import { InMemoryRunStore } from "@/lib/server/certification/run-store";
import { runCertification, runEnvironmentOf, runExitCode } from "@/lib/server/certification/runner";
import { loadEvidenceSigningKey, SigningKeyError } from "@/lib/server/certification/signing-key";
import type { RunEvent, Verdict } from "@/lib/shared/certification-contract";
import { ConfigError, loadConfig } from "@/lib/server/config";
import { createConsoleRoot } from "@/lib/server/root";
import { ProfileFileError, readProfileFile } from "@/lib/server/config/certification";

const USAGE = `Usage: npm run certify -- --env <${ENVIRONMENTS.join("|")}> [options]

  --env NAME                 environment to certify (required)
  --out DIR                  where the evidence bundle is written (default: evidence)
  --cases ID,ID,...          only these cases (default: the whole catalogue)
  --allow-production-gift    run Gift Balance Inquiry cases in production (records real transactions)
  --profile FILE             JSON test data: cards, clients (secrets by environment variable name)
  --operator NAME            who ran it (default: the local user)
  --max-expiry-wait SECONDS  how long AUTH-03 may wait for a token to expire (default 0: not applicable)
  --list                     print the catalogue and exit

Exit status: 0 every applicable case passed, 1 a case failed, 2 usage or configuration error.`;

class UsageError extends Error {}

const VERDICT_TEXT: Record<Verdict, string> = {
  pass: "pass",
  fail: "FAIL",
  observed: "observed",
  not_applicable: "n/a",
};

function parse() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        env: { type: "string" },
        out: { type: "string", default: "evidence" },
        cases: { type: "string" },
        "allow-production-gift": { type: "boolean", default: false },
        profile: { type: "string" },
        operator: { type: "string" },
        "max-expiry-wait": { type: "string", default: "0" },
        list: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values } = parsed;
  if (values.help || values.list)
    return { ...values, env: undefined as EnvironmentName | undefined, waitSeconds: 0 };
  if (!values.env) throw new UsageError("--env is required.");
  if (!(ENVIRONMENTS as readonly string[]).includes(values.env)) {
    throw new UsageError(
      `--env must be one of ${ENVIRONMENTS.join(", ")} (got ${JSON.stringify(values.env)}).`,
    );
  }
  const waitSeconds = Number(values["max-expiry-wait"]);
  if (!Number.isInteger(waitSeconds) || waitSeconds < 0 || waitSeconds > 7500) {
    throw new UsageError("--max-expiry-wait must be a whole number of seconds from 0 to 7500.");
  }
  return { ...values, env: values.env as EnvironmentName, waitSeconds };
}

function readProfile(file: string | undefined): ProfileFile | undefined {
  if (!file) return undefined;
  try {
    return readProfileFile(file);
  } catch (error) {
    if (error instanceof ProfileFileError) throw new ProfileError(`--profile ${file} ${error.message}`);
    throw error;
  }
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}

function progress(event: RunEvent): void {
  if (event.type !== "case_finished") return;
  const { result, index, total } = event;
  const ms = Date.parse(result.finished_at) - Date.parse(result.started_at);
  const counter = `[${String(index + 1).padStart(String(total).length)}/${total}]`;
  const why =
    result.verdict === "fail" || result.verdict === "not_applicable" ? ` — ${result.reason ?? ""}` : "";
  console.log(
    `${counter} ${pad(result.id, 7)} ${pad(VERDICT_TEXT[result.verdict], 8)} ${result.title} (${ms} ms)${why}`,
  );
}

async function main(): Promise<number> {
  const args = parse();
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  if (args.list) {
    for (const item of describeCatalogue())
      console.log(`${pad(item.id, 7)} ${item.title} (§${item.spec_sections.join(", §")})`);
    return 0;
  }
  const environmentName = args.env!;
  const config = loadConfig(process.env);
  // The console's own upstream clients (and embedded sandbox), as a running console would build them.
  const root = createConsoleRoot(config);
  const environment = certificationEnvironment(config, root.upstream, environmentName);
  const profile = resolveProfile(
    config,
    config.environments.find((item) => item.name === environmentName)!,
    readProfile(args.profile),
    process.env,
  );
  const key = await loadEvidenceSigningKey({
    env: process.env,
    warn: (message) => console.error(`warning: ${message}`),
  });
  const operator = args.operator?.trim() || `local:${userInfo().username}`;
  printBanner(environment, profile.primary.clientId, operator, args["allow-production-gift"]);
  const started = performance.now();
  const run = await runCertification({
    environment,
    profile,
    operator,
    allowProductionGift: args["allow-production-gift"],
    renewSkewSeconds: config.tokenRenewSkewSeconds,
    maxExpiryWaitMs: args.waitSeconds * 1000,
    caseIds: args.cases?.split(","),
    store: new InMemoryRunStore(),
    onEvent: progress,
  });
  printSummary(run, (performance.now() - started) / 1000);
  await writeEvidence(run, key, config, args.out!);
  return runExitCode(run);
}

type Environment = ReturnType<typeof certificationEnvironment>;
type FinishedRun = Awaited<ReturnType<typeof runCertification>>;
type SigningKey = Awaited<ReturnType<typeof loadEvidenceSigningKey>>;

function printBanner(
  environment: Environment,
  clientId: string,
  operator: string,
  allowProductionGift: boolean,
) {
  console.log(
    `Certifying ${environment.name} (${runEnvironmentOf(environment).served_by}) as ${clientId}, operator ${operator}`,
  );
  if (environment.name === "production") {
    console.log(
      allowProductionGift
        ? "Gift Balance Inquiry cases are allowed: they record real transactions in production."
        : "Gift Balance Inquiry cases are not applicable in production without --allow-production-gift.",
    );
  }
}

/** One line per case, then the counts by verdict. */
function printSummary(run: FinishedRun, elapsedSeconds: number): void {
  console.log("");
  console.log(`${pad("Case", 8)}${pad("Verdict", 10)}Title`);
  for (const result of run.results)
    console.log(`${pad(result.id, 8)}${pad(VERDICT_TEXT[result.verdict], 10)}${result.title}`);
  const counts = { pass: 0, fail: 0, observed: 0, not_applicable: 0 };
  for (const result of run.results) counts[result.verdict] += 1;
  console.log(
    `\n${run.results.length} cases in ${elapsedSeconds.toFixed(1)} s: ${counts.pass} passed, ${counts.fail} failed, ` +
      `${counts.observed} observed, ${counts.not_applicable} not applicable`,
  );
}

/** The signed evidence bundle, written under `out`. */
async function writeEvidence(
  run: FinishedRun,
  key: SigningKey,
  config: ReturnType<typeof loadConfig>,
  out: string,
): Promise<void> {
  const bundle = await buildEvidenceBundle({
    run,
    key,
    console: consoleInfo(config.certification),
    specification: specificationInfo(config.certification),
  });
  mkdirSync(out, { recursive: true });
  const file = path.join(out, bundle.fileName);
  writeFileSync(file, bundle.zip);
  console.log(
    `Evidence: ${file} (${(bundle.zip.byteLength / 1024).toFixed(1)} KiB, signed with key ${key.kid})`,
  );
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof ProfileError ||
      error instanceof EnvironmentNotConfiguredError ||
      error instanceof UnknownCaseError ||
      error instanceof SigningKeyError
    ) {
      console.error(`certify: ${error.message}`);
      if (error instanceof UsageError) console.error(`\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    console.error("certify: unexpected error:", error);
    process.exitCode = 2;
  },
);
