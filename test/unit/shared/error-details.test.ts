import { describe, expect, expectTypeOf, it } from "vitest";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import {
  errorDetails,
  type EnvironmentChangedDetails,
  type ErrorDetailsOf,
  type RateLimitedDetails,
} from "@/lib/shared/error-details";
import { INQUIRY_OPERATIONS, OPERATIONS, OPERATION_SPECS } from "@/lib/shared/operations";
import { ApiError } from "@/lib/server/util/errors";
import { describeApiError } from "@/lib/client/api-error-view";
import { ApiClientError, toApiClientError } from "@/lib/client/fetcher";
import { requestIdOfError } from "@/lib/client/outcome-unknown";
import { fieldErrorsOf } from "@/components/inquiry/use-inquiry-form";

/** What the browser gets back: the server's error body, read by the fetcher into an ApiClientError. */
function overTheWire(error: ApiError): ApiClientError {
  const { error: body } = error.toBody();
  return new ApiClientError(body.code, error.status, body.message, body.details);
}

const refusedExchange = { id: "x-1", operation: "token" } as unknown as ExchangeRecord;

describe("error details typed per code", () => {
  it("types the details each code carries, and none for the others", () => {
    expectTypeOf<ErrorDetailsOf<"rate_limited">>().toEqualTypeOf<RateLimitedDetails>();
    expectTypeOf<ErrorDetailsOf<"environment_changed">>().toEqualTypeOf<EnvironmentChangedDetails>();
    expectTypeOf<ErrorDetailsOf<"not_found">>().toEqualTypeOf<undefined>();
    // @ts-expect-error: a rate_limited error must say when to retry
    void new ApiError("rate_limited", "slow down", { limit: 60 });
    // @ts-expect-error: a code without details in the map carries none
    void new ApiError("not_found", "gone", { anything: true });
  });

  it("reads the details back by code on the browser's side, and nothing under another code", () => {
    const error = overTheWire(
      new ApiError("rate_limited", "Too many.", { limit: 60, window_seconds: 60, retry_after_seconds: 7 }),
    );
    expect(errorDetails(error, "rate_limited")?.retry_after_seconds).toBe(7);
    expect(errorDetails(error, "environment_changed")).toBeNull();
    expect(errorDetails({ code: "rate_limited", details: "7" }, "rate_limited")).toBeNull();
    expect(errorDetails({ code: "rate_limited" }, "rate_limited")).toBeNull();
  });

  it("finds the Request Id of a call that got no answer, for every no-answer code only", () => {
    for (const code of ["upstream_timeout", "upstream_tls_error", "upstream_unreachable"] as const) {
      const error = overTheWire(
        new ApiError(code, "No answer.", { operation: "gift_balance_inquiry", url: "u", request_id: "r-1" }),
      );
      expect(requestIdOfError(error)).toBe("r-1");
    }
    expect(
      requestIdOfError({ code: "validation_failed", details: { request_id: "r-1", fields: {} } }),
    ).toBeNull();
  });
});

describe("what ApiErrorAlert shows per code", () => {
  it("rate_limited: the wait from retry_after_seconds, or none when it is not a number", () => {
    const error = overTheWire(
      new ApiError("rate_limited", "Too many.", { limit: 60, window_seconds: 60, retry_after_seconds: 3 }),
    );
    expect(describeApiError(error)).toMatchObject({
      title: "Too many calls: wait a moment",
      body: { kind: "rate_limited", retryAfterSeconds: 3 },
    });
    expect(describeApiError({ code: "rate_limited", status: 429, message: "m" }).body).toEqual({
      kind: "rate_limited",
      retryAfterSeconds: null,
    });
  });

  it("environment_changed: from the page's environment to the session's", () => {
    const error = overTheWire(
      new ApiError("environment_changed", "Changed.", {
        session_environment: "sandbox",
        requested_environment: "embedded",
      }),
    );
    expect(describeApiError(error).body).toEqual({
      kind: "environment_changed",
      from: "embedded",
      to: "sandbox",
    });
  });

  it("a 504 with a Request Id offers it; without one, says there is no exchange", () => {
    const withId = overTheWire(
      new ApiError("upstream_timeout", "Timed out.", {
        operation: "gift_balance_inquiry",
        url: "u",
        request_id: "req-9",
      }),
    );
    expect(describeApiError(withId)).toMatchObject({
      title: "The upstream did not answer in time",
      body: { kind: "no_answer_with_request_id", requestId: "req-9" },
      noAnswer: true,
    });
    const withoutId = overTheWire(
      new ApiError("upstream_unreachable", "Refused.", { operation: "balance_inquiry", url: "u" }),
    );
    expect(describeApiError(withoutId)).toMatchObject({ body: { kind: "message" }, noAnswer: true });
  });

  it("token_refused: its exchange is shown, with the way to Connect", () => {
    const error = overTheWire(new ApiError("token_refused", "Refused.", { exchange: refusedExchange }));
    expect(describeApiError(error)).toMatchObject({
      title: "The token endpoint refused the credentials",
      body: { kind: "message", connectLink: true },
      exchange: refusedExchange,
    });
  });

  it("codes without a title use the page's fallback title; errors that are not the console's read as unexpected", () => {
    const duplicate = { code: "run_not_finished", status: 409, message: "Still running." };
    expect(describeApiError(duplicate, "The replay got no answer").title).toBe("The replay got no answer");
    expect(describeApiError(duplicate).title).toBe("The request could not run");
    const unexpected = toApiClientError(new TypeError("boom"));
    expect(unexpected).toMatchObject({ code: "unexpected", status: 0, message: "boom" });
    const same = new ApiClientError("no_credentials", 401, "Connect first.");
    expect(toApiClientError(same)).toBe(same);
    expect(describeApiError(same).body).toEqual({ kind: "no_credentials" });
  });

  it("validation_failed: the inquiry form shows each field's first message from the details", () => {
    const error = overTheWire(
      new ApiError("validation_failed", "Not valid.", {
        fields: {
          card_number: ["must be 12 to 19 digits", "second"],
          location_id: ["too long"],
          other: ["x"],
        },
      }),
    );
    expect(fieldErrorsOf(error)).toEqual({ cardNumber: "must be 12 to 19 digits", locationId: "too long" });
    expect(fieldErrorsOf({ code: "not_found", details: { fields: { card_number: ["x"] } } })).toEqual({});
  });
});

describe("inquiry operations come from the registry", () => {
  it("are the operations whose input is the card body, in the registry's order", () => {
    expect(INQUIRY_OPERATIONS).toEqual(OPERATIONS.filter((name) => OPERATION_SPECS[name].takesCard));
    expect(INQUIRY_OPERATIONS).toEqual(["gift_balance_inquiry", "balance_inquiry"]);
  });
});
