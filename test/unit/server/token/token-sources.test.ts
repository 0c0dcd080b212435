/**
 * Token sources outside a request, against the embedded sandbox: a support batch's cards share one token kept in
 * memory (no session anywhere), a token the sandbox revoked is renewed once and the card retried once, and a
 * source without credentials sends nothing.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { getEmbeddedSandbox } from "@/lib/server/root/embedded-sandbox";
import { consoleRoot } from "@/lib/server/root";
import { batchBalanceInquiry } from "@/lib/server/inquiry/operations";
import { memoryToken } from "@/lib/server/token/call-context";
import { supportInquiryInput } from "@/lib/server/support/lookup";
import { configure } from "../support";

const ACTIVE_CARD = "6006491000000001";
const sandbox = () => getEmbeddedSandbox();

beforeEach(() => {
  configure();
  sandbox().reset();
});

/** A batch on the embedded sandbox with the demo credentials: its inquiry, its shared token, a source per card. */
function demoBatch() {
  const inquire = batchBalanceInquiry;
  const tokens = memoryToken();
  const source = () =>
    consoleRoot().calls.fromState({ environment: "embedded", credentials: { kind: "demo" } }, tokens);
  return { inquire, tokens, source };
}

describe("a support batch's token source", () => {
  it("shares one token across the batch's cards and keeps it in memory", async () => {
    const { inquire, tokens, source } = demoBatch();
    const before = sandbox().stats().tokenRequests;

    const first = await inquire(source(), supportInquiryInput(ACTIVE_CARD, "embedded"));
    const second = await inquire(source(), supportInquiryInput(ACTIVE_CARD, "embedded"));

    expect(first.token_events.map((event) => event.type)).toEqual(["acquired"]);
    expect(second.token_events).toEqual([]);
    expect(sandbox().stats().tokenRequests - before).toBe(1);
    expect(tokens.current()?.accessToken).toBeTruthy();
  });

  it("renews once after a 401 and retries the card once", async () => {
    const { inquire, tokens, source } = demoBatch();
    await inquire(source(), supportInquiryInput(ACTIVE_CARD, "embedded"));
    const revoked = tokens.current();
    sandbox().revokeTokens();

    const record = await inquire(source(), supportInquiryInput(ACTIVE_CARD, "embedded"));

    expect(record.response.status).toBe(200);
    expect(record.token_events.map((event) => event.type)).toEqual(["renewed_after_401"]);
    expect(tokens.current()?.accessToken).not.toBe(revoked?.accessToken);
  });

  it("sends nothing without credentials", async () => {
    const source = consoleRoot().calls.fromState({ environment: "embedded" }, memoryToken());
    const before = sandbox().stats().tokenRequests;
    await expect(
      batchBalanceInquiry(source, supportInquiryInput(ACTIVE_CARD, "embedded")),
    ).rejects.toMatchObject({ code: "no_credentials" });
    expect(sandbox().stats().tokenRequests).toBe(before);
  });
});
