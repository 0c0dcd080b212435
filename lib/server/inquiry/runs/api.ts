/** The team runs routes' query and answers (docs/design.md §4 `GET /api/runs`), shared with the History page. */
import { z } from "zod";
import { INQUIRY_OPERATIONS } from "@/lib/shared/operations";
import type { TeamRun, TeamRunSummary } from "./store";

export const teamRunQuerySchema = z
  .object({
    request_id: z.string().trim().max(128).optional(),
    user: z.string().trim().max(128).optional(),
    operation: z.enum(INQUIRY_OPERATIONS).optional(),
  })
  .strict();

export interface TeamRunListResponse {
  runs: TeamRunSummary[];
  /** RUNS_RETENTION_DAYS: runs older than this are gone. */
  retention_days: number;
}

export type TeamRunResponse = TeamRun;
