/**
 * Where history's exported runs go when they are run again (lib/shared/run-export): to this console's address
 * for the environment each was recorded in, with that environment's token address. A run may have come from
 * another console (imported history): its recorded address is that console's, and its token would be asked of
 * this one, so every request would be refused. Runs that cannot go anywhere here say why.
 */
import type { EnvironmentInfo, ExchangeRecord } from "./contracts";

/** Where one run is sent, or why it cannot be sent from this console. */
export interface RunTarget {
  exchange: ExchangeRecord;
  url: string;
  /** Null when the run can be sent here; else one sentence for a person. */
  cannotRun: string | null;
}

export interface RunTargets {
  /** The token address the runs that can be sent take their token from. */
  authUrl: string;
  runs: RunTarget[];
}

/** The API's path families (API specification §4, §9): what follows an environment's base address. */
const API_PATH = /\/(?:transaction|reporting)\/v1\//;

/** The recorded address below its environment's base: `/transaction/v1/balance-inquiry`, with any query. */
function pathBelowBase(url: string): string | null {
  const at = url.search(API_PATH);
  return at > 0 ? url.slice(at) : null;
}

const joined = (base: string, path: string) => `${base.replace(/\/+$/, "")}${path}`;

/** The environment most runs were recorded in (the first of a tie). */
function mainEnvironment(runs: readonly ExchangeRecord[], here: readonly EnvironmentInfo[]) {
  const counts = new Map<string, number>();
  for (const run of runs) counts.set(run.environment, (counts.get(run.environment) ?? 0) + 1);
  let best: EnvironmentInfo | undefined;
  for (const environment of here) {
    if ((counts.get(environment.name) ?? 0) > (best ? (counts.get(best.name) ?? 0) : 0)) best = environment;
  }
  return best;
}

/**
 * Each run addressed to this console's environment of its name; the token from the environment most of them
 * were recorded in. A run of an environment this console does not have, or whose token address differs, keeps
 * its recorded address and says that it cannot run with this export.
 */
export function runTargets(runs: readonly ExchangeRecord[], here: readonly EnvironmentInfo[]): RunTargets {
  const main = mainEnvironment(runs, here);
  const targets = runs.map((exchange): RunTarget => {
    const keep = (cannotRun: string) => ({ exchange, url: exchange.request.url, cannotRun });
    const environment = here.find((candidate) => candidate.name === exchange.environment);
    if (!environment) {
      return keep(
        `Recorded in the ${exchange.environment} environment, which this console does not have: it cannot ` +
          "run from this export.",
      );
    }
    if (main && environment.auth_url !== main.auth_url) {
      return keep(
        `Recorded in ${exchange.environment}, whose token comes from ${environment.auth_url}, not from this ` +
          `export's ${main.auth_url}: export the ${exchange.environment} runs on their own.`,
      );
    }
    const path = pathBelowBase(exchange.request.url);
    if (!path)
      return keep(`Its address ${exchange.request.url} is not one of the API's: it cannot run here.`);
    const base = exchange.operation === "token" ? environment.auth_url : environment.base_url;
    return { exchange, url: joined(base, path), cannotRun: null };
  });
  return { authUrl: main?.auth_url ?? "", runs: targets };
}
