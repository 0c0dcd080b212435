/** The catalogue's entries for certification runs and client certifications (docs/design.md §8, §11). */
import { z } from "zod";
import { startRunInputSchema } from "@/lib/shared/certification-api";
import {
  armPlanSchema,
  armedPlanSchema,
  clientCallPageSchema,
  clientCertificationIdSchema,
  clientStepIdSchema,
  endPlanSchema,
  faultVocabularySchema,
  planIdSchema,
  planResultSchema,
  startClientCertificationSchema,
} from "@/lib/shared/client-certification-contract";
import { PUBLIC, allowSomewhere } from "@/lib/server/http/access";
import type { RouteDeclaration } from "@/lib/server/http/declaration";
import {
  clientCertificationListSchema,
  clientCertificationViewSchema,
  emptyInputSchema,
  exchangeRecordSchema,
  publicJwkSchema,
  runListSchema,
  runViewSchema,
  startRunResultSchema,
  startedClientCertificationSchema,
  verifyResultSchema,
} from "./console-schemas";

const CERTIFY = allowSomewhere("certification_run");
const NO_RUN = { not_found: "No such run." } as const;
const runId = { id: { description: "The run's id (the `id` of the 202 that started it)." } };
const zip = (description: string) =>
  ({ description, media: "application/zip", headers: { "Content-Disposition": "An attachment." } }) as const;

const certificationId = z.object({ id: clientCertificationIdSchema });
const certificationIdNote = {
  id: { description: "The certification's id (the `id` of the 201 that started it)." },
};
const NO_CERTIFICATION = {
  not_found: "No such certification; another user's is not found either (admins excepted).",
} as const;

export const certificationRoutes = {
  "/api/certification/runs": {
    GET: {
      operationId: "listCertificationRuns",
      summary: "The certification runs kept, newest first",
      access: CERTIFY,
      answers: { 200: { description: "The runs, without checks or exchanges.", schema: runListSchema } },
    },
    POST: {
      operationId: "startCertificationRun",
      summary: "Start a certification run in the background, against the environment it names",
      description: "The role must allow `certification_run` in the environment the body names.",
      access: CERTIFY,
      body: { schema: startRunInputSchema, example: { environment: "embedded" } },
      answers: {
        202: {
          description: "Started; follow it at Location.",
          schema: startRunResultSchema,
          headers: { Location: "`/api/certification/runs/{id}`." },
        },
      },
      errors: {
        environment_unavailable: "The environment is not configured.",
        no_credentials: "The session holds no credentials for that environment.",
        forbidden_by_role: "The role may not run certification in that environment.",
        rate_limited: "The caller started CERTIFICATION_RUNS_PER_HOUR runs in that environment this hour.",
      },
    },
  },
  "/api/certification/runs/[id]": {
    GET: {
      operationId: "getCertificationRun",
      summary: "One run: progress and per-case results (the exchange bodies are in the evidence bundle)",
      access: CERTIFY,
      parameters: runId,
      answers: { 200: { description: "The run.", schema: runViewSchema } },
      errors: {
        ...NO_RUN,
        forbidden_by_role: "The role may not run certification in the run's environment.",
      },
    },
  },
  "/api/certification/runs/[id]/cancel": {
    POST: {
      operationId: "cancelCertificationRun",
      summary:
        "Cancel a queued or running run: the case under way finishes, the rest do not run; status `cancelled`, the bundle signs what ran (audited)",
      access: CERTIFY,
      parameters: runId,
      answers: {
        200: {
          description: "The run, cancelled (or as it was, when it had already ended).",
          schema: runViewSchema,
        },
      },
      errors: {
        ...NO_RUN,
        forbidden_by_role: "The role may not run certification in the run's environment.",
        run_not_finished: "The run is under way on another console instance.",
      },
    },
  },
  "/api/certification/runs/[id]/exchanges/[exchangeId]": {
    GET: {
      operationId: "getCertificationRunExchange",
      summary: "One exchange of a run, masked and redacted as stored (as in the evidence bundle)",
      access: CERTIFY,
      parameters: {
        ...runId,
        exchangeId: { description: "An exchange id of the run (`exchanges[].id` of the run view)." },
      },
      answers: { 200: { description: "The exchange record.", schema: exchangeRecordSchema } },
      errors: {
        not_found: "No such run or exchange.",
        forbidden_by_role: "The role may not run certification in the run's environment.",
      },
    },
  },
  "/api/certification/runs/[id]/evidence": {
    GET: {
      operationId: "downloadCertificationEvidence",
      summary: "The run's signed evidence bundle, as an attachment",
      access: CERTIFY,
      parameters: runId,
      answers: { 200: zip("The bundle (a zip signed with the key of /api/certification/public-key).") },
      errors: {
        ...NO_RUN,
        forbidden_by_role: "The role may not run certification in the run's environment.",
        run_not_finished: "The run is still queued or running: it is signed when it ends.",
      },
    },
  },
  "/api/certification/verify": {
    POST: {
      operationId: "verifyCertificationEvidence",
      summary: "Check an evidence bundle: file hashes, signature, and whether this console signed it",
      access: CERTIFY,
      upload: { media: "application/zip", description: "The bundle as downloaded." },
      answers: {
        200: {
          description: "The verdict, whether intact or not (`ok`, `problems`).",
          schema: verifyResultSchema,
        },
      },
      errors: { bundle_too_large: "The bundle is larger than the console reads." },
    },
  },
  "/api/certification/public-key": {
    GET: {
      operationId: "certificationPublicKey",
      summary: "The public JWK (Ed25519) that verifies this console's evidence bundles",
      description: "Verifiers need no console account (each bundle carries the key too).",
      access: PUBLIC,
      answers: { 200: { description: "The key.", schema: publicJwkSchema } },
      errors: { storage_unavailable: "The console's database did not answer." },
    },
  },
  "/api/client-certifications": {
    GET: {
      operationId: "listClientCertifications",
      summary: "The integration certifications kept, newest first, with their verdicts",
      access: CERTIFY,
      answers: { 200: { description: "The certifications.", schema: clientCertificationListSchema } },
    },
    POST: {
      operationId: "startClientCertification",
      summary:
        "Start certifying your application: registers a fresh sandbox client and answers its secret, the one time it leaves the server (audited)",
      access: CERTIFY,
      body: { schema: startClientCertificationSchema, example: { environment: "embedded" } },
      answers: {
        201: {
          description: "The certification, with the client's secret.",
          schema: startedClientCertificationSchema,
          headers: { Location: "`/api/client-certifications/{id}`." },
        },
      },
      errors: { forbidden_by_role: "The role may not run certification on embedded." },
    },
  },
  "/api/client-certifications/faults": {
    GET: {
      operationId: "listFaultFamilies",
      summary:
        "The fault families a plan may name (docs/design.md §14): the kinds of call each applies to, whether the transaction is recorded first, and the checks it exercises",
      access: CERTIFY,
      answers: { 200: { description: "The vocabulary.", schema: faultVocabularySchema } },
    },
  },
  "/api/client-certifications/[id]/plans": {
    POST: {
      operationId: "armFaultPlan",
      summary:
        "Arm a fault plan for this certification's client only (ending and judging the one before); calls are counted per kind from now",
      access: CERTIFY,
      params: certificationId,
      parameters: certificationIdNote,
      body: { schema: armPlanSchema, example: { code: "gift#1:reset_after_commit,token#2:status_503" } },
      answers: { 201: { description: "The plan armed.", schema: armedPlanSchema } },
      errors: {
        ...NO_CERTIFICATION,
        validation_failed: "The code names an unknown family, or a family on a kind it does not apply to.",
        certification_finished: "The certification has finished or expired.",
      },
    },
  },
  "/api/client-certifications/[id]/plans/[plan]/end": {
    POST: {
      operationId: "endFaultPlan",
      summary: "End a plan and judge it on its own calls (`exit_code`: the application's, when known)",
      access: CERTIFY,
      params: z.object({ id: clientCertificationIdSchema, plan: planIdSchema }),
      parameters: {
        ...certificationIdNote,
        plan: { description: "The plan's id (the `plan_id` of the 201 that armed it)." },
      },
      body: { schema: endPlanSchema, example: { exit_code: 0 } },
      answers: { 200: { description: "The plan, judged.", schema: planResultSchema } },
      errors: { ...NO_CERTIFICATION },
    },
  },
  "/api/client-certifications/[id]": {
    GET: {
      operationId: "getClientCertification",
      summary:
        "Status, steps, the checks so far, the call counters and a page of the recorded calls (masked, redacted): the calls after `calls_after` (their `seq`), at most `limit` (100 when not given)",
      access: CERTIFY,
      params: certificationId,
      query: clientCallPageSchema,
      parameters: certificationIdNote,
      answers: { 200: { description: "The certification.", schema: clientCertificationViewSchema } },
      errors: NO_CERTIFICATION,
    },
  },
  "/api/client-certifications/[id]/steps/[step]": {
    POST: {
      operationId: "armClientCertificationStep",
      summary: "Arm a step for this certification's client only, ending the one before (audited)",
      access: CERTIFY,
      params: z.object({ id: clientCertificationIdSchema, step: clientStepIdSchema }),
      parameters: certificationIdNote,
      body: { schema: emptyInputSchema, example: {} },
      answers: {
        200: { description: "The certification, the step armed.", schema: clientCertificationViewSchema },
      },
      errors: {
        ...NO_CERTIFICATION,
        certification_finished: "The certification has finished or expired.",
      },
    },
  },
  "/api/client-certifications/[id]/finish": {
    POST: {
      operationId: "finishClientCertification",
      summary: "Judge the recorded traffic, revoke the client, set `done` (audited)",
      access: CERTIFY,
      params: certificationId,
      parameters: certificationIdNote,
      body: { schema: emptyInputSchema, example: {} },
      answers: { 200: { description: "The certification, judged.", schema: clientCertificationViewSchema } },
      errors: {
        ...NO_CERTIFICATION,
        certification_finished: "The certification has already finished or expired.",
      },
    },
  },
  "/api/client-certifications/[id]/evidence": {
    GET: {
      operationId: "getClientCertificationEvidence",
      summary: 'The signed evidence bundle with `"kind": "client"` (audited)',
      access: CERTIFY,
      params: certificationId,
      parameters: certificationIdNote,
      answers: { 200: zip("The bundle.") },
      errors: NO_CERTIFICATION,
    },
  },
} as const satisfies Record<string, Record<string, RouteDeclaration>>;
