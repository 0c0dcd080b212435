/**
 * Where runs are kept: in memory for the CLI and unit tests; in the database for the console's routes
 * (./db-run-store.ts), so that every instance lists the runs and reads one's progress.
 */
import { summarizeRun, type RunState, type RunSummary } from "@/lib/shared/certification-contract";

export interface RunStore {
  save(run: RunState): Promise<void>;
  get(id: string): Promise<RunState | undefined>;
  /** Newest first. */
  list(): Promise<RunSummary[]>;
}

/** Keeps copies, so that a reader never sees a run change under it. */
export class InMemoryRunStore implements RunStore {
  private readonly runs = new Map<string, RunState>();

  constructor(private readonly maxRuns = 100) {}

  async save(run: RunState): Promise<void> {
    this.runs.delete(run.id);
    this.runs.set(run.id, structuredClone(run));
    while (this.runs.size > this.maxRuns) {
      const oldest = this.runs.keys().next().value;
      if (oldest === undefined) break;
      this.runs.delete(oldest);
    }
  }

  async get(id: string): Promise<RunState | undefined> {
    const run = this.runs.get(id);
    return run ? structuredClone(run) : undefined;
  }

  async list(): Promise<RunSummary[]> {
    return [...this.runs.values()]
      .map((run) => summarizeRun(run))
      .sort((a, b) => b.started_at.localeCompare(a.started_at));
  }
}
