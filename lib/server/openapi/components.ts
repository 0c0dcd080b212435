/**
 * The schemas the console document names once under `components.schemas` and references by `$ref`: a schema of
 * the route catalogue found here is referenced, any other is written inline where it is used.
 */
import { z } from "zod";
import {
  balanceInquiryInputSchema,
  credentialsInputSchema,
  environmentInputSchema,
  freeFormRequestInputSchema,
  giftBalanceInquiryInputSchema,
} from "@/lib/shared/contracts";
import { startRunInputSchema } from "@/lib/shared/certification-api";
import { supportBatchInputSchema, supportLookupInputSchema } from "@/lib/shared/support-contract";
import { adminSuspendInputSchema } from "@/lib/shared/admin-contract";
import { startClientCertificationSchema } from "@/lib/shared/client-certification-contract";
import { createMonitorSchema, testAlertSchema, updateMonitorSchema } from "@/lib/shared/monitors-api";
import { testCardListSchema, testCardNumberSchema } from "@/lib/shared/test-cards";
import { componentRef, jsonSchema, type JsonSchema } from "@/lib/shared/json-schema";
import { meResponseSchema } from "@/lib/server/identity/me";
import * as schemas from "@/lib/server/routes/console-schemas";

type Io = "input" | "output";

const NAMED: readonly (readonly [string, z.ZodType, Io])[] = [
  ["ErrorBody", schemas.errorBodySchema, "output"],
  ["SessionInfo", schemas.sessionInfoSchema, "output"],
  ["ExchangeRecord", schemas.exchangeRecordSchema, "output"],
  ["InquiryAnswer", schemas.inquiryAnswerSchema, "output"],
  ["TokenResult", schemas.tokenResultSchema, "output"],
  ["Health", schemas.healthSchema, "output"],
  ["Ready", schemas.readySchema, "output"],
  ["Me", meResponseSchema, "output"],
  ["LogoutResult", schemas.logoutResultSchema, "output"],
  ["AuditPage", schemas.auditPageSchema, "output"],
  ["AuditVerify", schemas.auditVerifySchema, "output"],
  ["CredentialsInput", credentialsInputSchema, "input"],
  ["EnvironmentInput", environmentInputSchema, "input"],
  ["BalanceInquiryInput", balanceInquiryInputSchema, "input"],
  ["GiftBalanceInquiryInput", giftBalanceInquiryInputSchema, "input"],
  ["FreeFormRequestInput", freeFormRequestInputSchema, "input"],
  ["PublicJwk", schemas.publicJwkSchema, "output"],
  ["StartRunInput", startRunInputSchema, "input"],
  ["StartRunResult", schemas.startRunResultSchema, "output"],
  ["RunList", schemas.runListSchema, "output"],
  ["RunView", schemas.runViewSchema, "output"],
  ["VerifyResult", schemas.verifyResultSchema, "output"],
  ["SupportLookupInput", supportLookupInputSchema, "input"],
  ["SupportLookupResult", schemas.supportLookupResultSchema, "output"],
  ["SupportBatchInput", supportBatchInputSchema, "input"],
  ["SupportBatchProgress", schemas.supportBatchProgressSchema, "output"],
  ["SupportBatchResults", schemas.supportBatchResultsSchema, "output"],
  ["TeamRunList", schemas.teamRunListSchema, "output"],
  ["TeamRun", schemas.teamRunSchema, "output"],
  ["StartClientCertificationInput", startClientCertificationSchema, "input"],
  ["EmptyInput", schemas.emptyInputSchema, "input"],
  ["ClientCertificationList", schemas.clientCertificationListSchema, "output"],
  ["ClientCertification", schemas.clientCertificationViewSchema, "output"],
  ["StartedClientCertification", schemas.startedClientCertificationSchema, "output"],
  ["SupportBatchList", schemas.supportBatchListSchema, "output"],
  ["AdminSessionList", schemas.adminSessionListSchema, "output"],
  ["AdminSessionsEnded", schemas.adminSessionsEndedSchema, "output"],
  ["AdminUserSessionsEnded", schemas.adminUserSessionsEndedSchema, "output"],
  ["AdminSuspensionList", schemas.adminSuspensionListSchema, "output"],
  ["AdminSuspendInput", adminSuspendInputSchema, "input"],
  ["AdminSuspended", schemas.adminSuspendedSchema, "output"],
  ["AdminLifted", schemas.adminLiftedSchema, "output"],
  ["AuditUserList", schemas.auditUserListSchema, "output"],
  ["SupportTransactionLookup", schemas.supportTransactionLookupSchema, "output"],
  ["CreateMonitorInput", createMonitorSchema, "input"],
  ["UpdateMonitorInput", updateMonitorSchema, "input"],
  ["Monitor", schemas.monitorSchema, "output"],
  ["MonitorList", schemas.monitorListSchema, "output"],
  ["MonitorDetail", schemas.monitorDetailSchema, "output"],
  ["MonitorRunResult", schemas.monitorRunResultSchema, "output"],
  ["MonitorDeleted", schemas.monitorDeletedSchema, "output"],
  ["AlertDelivery", schemas.deliverySchema, "output"],
  ["AlertDeliveryList", schemas.deliveryListSchema, "output"],
  ["TestAlertInput", testAlertSchema, "input"],
  ["TestCardList", testCardListSchema, "output"],
  ["TestCardNumber", testCardNumberSchema, "output"],
  ["StarterClientList", schemas.starterClientListSchema, "output"],
];

const NAMES = new Map(NAMED.map(([name, schema]) => [schema, name]));

/** `components.schemas`: each named schema converted once. */
export function componentSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(NAMED.map(([name, schema, io]) => [name, jsonSchema(schema, io)]));
}

/** A `$ref` for a named schema, `oneOf` references for a union of named ones, else the schema inline. */
export function schemaOf(schema: z.ZodType, io: Io): JsonSchema {
  const name = NAMES.get(schema);
  if (name) return componentRef(name);
  if (schema instanceof z.ZodUnion) {
    const options = schema.options as z.ZodType[];
    if (options.every((option) => NAMES.has(option))) {
      return { oneOf: options.map((option) => componentRef(NAMES.get(option)!)) };
    }
  }
  return jsonSchema(schema, io);
}
