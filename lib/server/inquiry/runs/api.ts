/** The team runs routes' query and answers (docs/design.md §4 `GET /api/runs`), shared with the History page. */
import { z } from "zod";
import { environmentNameSchema, exchangeRecordSchema, isoTime } from "@/lib/shared/contracts";
import { INQUIRY_OPERATIONS } from "@/lib/shared/operations";

export const teamRunQuerySchema = z
  .object({
    request_id: z.string().trim().max(128).optional(),
    user: z.string().trim().max(128).optional(),
    operation: z.enum(INQUIRY_OPERATIONS).optional(),
  })
  .strict();

/** One run in a list: who, where, what, and the answer's status; the exchange is read with `getTeamRun`. */
const teamRunSummarySchema = z.object({
  id: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  environment: environmentNameSchema,
  operation: z.enum(INQUIRY_OPERATIONS),
  request_id: z.string().nullable(),
  card: z.string().nullable(),
  status: z.number().int(),
  started_at: isoTime,
});

export const teamRunListSchema = z.object({
  runs: z.array(teamRunSummarySchema),
  /** RUNS_RETENTION_DAYS: runs older than this are gone. */
  retention_days: z.number().int(),
});

export const teamRunSchema = teamRunSummarySchema.extend({ exchange: exchangeRecordSchema });

export type TeamRunSummary = z.infer<typeof teamRunSummarySchema>;
export type TeamRun = z.infer<typeof teamRunSchema>;
export type TeamRunListResponse = z.infer<typeof teamRunListSchema>;
export type TeamRunResponse = TeamRun;
