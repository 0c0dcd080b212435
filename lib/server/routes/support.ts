/** The catalogue's entries for the support desk (docs/design.md §9): card numbers appear as last 4 only. */
import { z } from "zod";
import { SANDBOX_EXAMPLES } from "@/lib/sandbox/examples";
import { supportBatchInputSchema, supportLookupInputSchema } from "@/lib/shared/support-contract";
import { allowIn, allowSomewhere } from "@/lib/server/http/access";
import type { RouteDeclaration } from "@/lib/server/http/declaration";
import {
  supportBatchListSchema,
  supportBatchProgressSchema,
  supportBatchResultsSchema,
  supportLookupResultSchema,
  supportResultsQuerySchema,
} from "./console-schemas";

const BATCH = allowSomewhere("support_batch");
const batchId = z.object({ id: z.uuid() });
const batchIdNote = {
  id: { description: "The batch's id (the `id` of the 202 that started it); anything else is 404." },
};
const NO_BATCH = { not_found: "No such batch; a batch is its owner's (admins see all)." } as const;
const IN_BATCH_ENVIRONMENT = "The role must allow `support_batch` in the batch's environment.";

export const supportRoutes = {
  "/api/support/lookups": {
    POST: {
      operationId: "supportLookup",
      summary: "Support desk: one Balance Inquiry in the session's environment, answered masked (last 4)",
      description: "No answer upstream (timeout, unreachable, 429) is an `outcome` of the 200, not an error.",
      access: allowIn("support_lookup"),
      body: { schema: supportLookupInputSchema, example: { card_number: SANDBOX_EXAMPLES.cardNumber } },
      answers: {
        200: {
          description: "What the lookup found, in the support shape.",
          schema: supportLookupResultSchema,
        },
      },
      errors: {
        no_credentials: "The session holds no credentials for this environment.",
        environment_changed: "The session's environment changed since the page was shown.",
      },
      options: { upstream: true },
    },
  },
  "/api/support/batches": {
    GET: {
      operationId: "listSupportBatches",
      summary: "Support desk: the caller's batches (everyone's for an admin), newest first, with progress",
      access: BATCH,
      answers: { 200: { description: "The batches kept (24 hours).", schema: supportBatchListSchema } },
    },
    POST: {
      operationId: "startSupportBatch",
      summary: "Support desk: start a batch of lookups in the session's environment, run on the server",
      description:
        "Cards as a JSON list, as CSV text in JSON, or as a `text/csv` upload (one per line, or a " +
        "`card_number` column); no card number found: 400 `validation_failed`.",
      access: allowIn("support_batch"),
      body: {
        schema: supportBatchInputSchema,
        example: { cards: [SANDBOX_EXAMPLES.cardNumber, "6006491000000019"] },
        alternative: { media: "text/csv", example: "card_number\n6006491000000001\n" },
      },
      query: z.object({ reason: supportBatchInputSchema.options[1].shape.reason }),
      parameters: {
        reason: { description: "With a `text/csv` upload only: the reason or ticket kept in the audit log." },
      },
      answers: {
        202: {
          description: "Started: its progress (poll /api/support/batches/{id}).",
          schema: supportBatchProgressSchema,
        },
      },
      errors: {
        no_credentials: "The session holds no credentials for this environment.",
        payload_too_large: "More cards than SUPPORT_BATCH_MAX_CARDS allows.",
      },
    },
  },
  "/api/support/batches/[id]": {
    GET: {
      operationId: "getSupportBatch",
      summary: "Support desk: a batch's progress",
      description: IN_BATCH_ENVIRONMENT,
      access: BATCH,
      params: batchId,
      parameters: batchIdNote,
      answers: { 200: { description: "Its progress.", schema: supportBatchProgressSchema } },
      errors: NO_BATCH,
    },
    DELETE: {
      operationId: "cancelSupportBatch",
      summary: "Support desk: cancel a batch (cards not yet run will not run)",
      description: IN_BATCH_ENVIRONMENT,
      access: BATCH,
      params: batchId,
      parameters: batchIdNote,
      answers: { 200: { description: "Its progress after cancelling.", schema: supportBatchProgressSchema } },
      errors: NO_BATCH,
    },
  },
  "/api/support/batches/[id]/retry": {
    POST: {
      operationId: "retrySupportBatchFailures",
      summary: "Support desk: a new batch of a batch's failed cards (no usable answer), run on the server",
      description: IN_BATCH_ENVIRONMENT,
      access: BATCH,
      params: batchId,
      parameters: batchIdNote,
      answers: {
        202: { description: "Started: the new batch's progress.", schema: supportBatchProgressSchema },
      },
      errors: {
        ...NO_BATCH,
        validation_failed: "The batch has no failed card.",
        environment_changed: "The batch ran in another environment than the session's: switch to it first.",
        no_credentials: "The session holds no credentials for this environment.",
      },
    },
  },
  "/api/support/batches/[id]/results": {
    GET: {
      operationId: "getSupportBatchResults",
      summary: "Support desk: a page of a batch's masked results, in input order",
      description: IN_BATCH_ENVIRONMENT,
      access: BATCH,
      params: batchId,
      query: supportResultsQuerySchema,
      parameters: batchIdNote,
      answers: {
        200: {
          description: "One page; `next_position` is the next `from` (an attachment with `download=1`).",
          schema: supportBatchResultsSchema,
        },
      },
      errors: NO_BATCH,
    },
  },
  "/api/support/batches/[id]/results.csv": {
    GET: {
      operationId: "exportSupportBatchResults",
      summary:
        "Support desk: a batch's masked results as CSV (line, last4, card_hash, the eight purses, status, error)",
      description: IN_BATCH_ENVIRONMENT,
      access: BATCH,
      params: batchId,
      parameters: batchIdNote,
      answers: {
        200: {
          description: "CSV, one row per card in input order, as an attachment.",
          media: "text/csv",
          headers: { "Content-Disposition": "An attachment." },
        },
      },
      errors: NO_BATCH,
    },
  },
} as const satisfies Record<string, Record<string, RouteDeclaration>>;
