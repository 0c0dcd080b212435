/**
 * Global setup: one durable PostgreSQL cluster (one initdb, fsync on) for the run, provided as `postgres`;
 * `startPostgres()` in a test file answers a handle on it, and each file creates its own databases there.
 */
import type { TestProject } from "vitest/node";
import { launchPostgres } from "../support/postgres";
import { oncePerRun } from "./once-per-run";

async function start() {
  const cluster = await launchPostgres();
  // A run that is killed still leaves no server behind.
  process.once("exit", cluster.stop);
  return cluster;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { value: cluster, release } = await oncePerRun("postgres", start, (started) => {
    process.removeListener("exit", started.stop);
    started.stop();
  });
  const { url, port, folder, bin } = cluster;
  project.provide("postgres", { url, port, folder, bin });
  return release;
}
