/** The logger never writes a secret, token, cookie or full card number, whatever the caller passes. */
import { afterEach, describe, expect, it } from "vitest";
import { captureLogs, logger, registerSecret, sanitizeLogLine } from "@/lib/server/util/logger";

const JWT =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJkZW1vLWNsaWVudCIsInNjb3BlIjoicmVhZDp0cmFuc2FjdGlvbnMifQ.c2lnbmF0dXJlLWJ5dGVz";
const SEAL = "Fe26.2*1*abcdef0123*iv*encrypted*1795339745801*mac*hmac~2";

let capture: ReturnType<typeof captureLogs> | undefined;
afterEach(() => capture?.restore());

describe("logger", () => {
  it("redacts secret fields at any depth, JWTs, seals, registered secrets and card numbers", () => {
    capture = captureLogs();
    registerSecret("the-server-client-secret-value");
    logger.info(
      {
        authorization: `Bearer ${JWT}`,
        headers: { cookie: `csc_session=${SEAL}`, Authorization: "Bearer abc" },
        nested: { deeper: { client_secret: "user-secret-1", access_token: "opaque-token-123" } },
        message: `card 6006491000000001 failed with token ${JWT}`,
        note: "configured with the-server-client-secret-value",
        seal: SEAL,
      },
      "an event",
    );
    logger.error({ error: { message: "upstream said 6006491000000019" } }, "boom 6006491000000027");
    const text = capture.text();
    for (const secret of [
      JWT,
      SEAL,
      "user-secret-1",
      "opaque-token-123",
      "the-server-client-secret-value",
      "6006491000000001",
      "6006491000000019",
      "6006491000000027",
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain("600649******0001");
    expect(capture.lines()).toHaveLength(2);
    for (const line of capture.lines()) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("drops a secret-named field's value whatever its type, at the top and one level down, leaving the caller's object as it was", () => {
    capture = captureLogs();
    const fields = {
      password: 123456789,
      headers: { "Set-Cookie": ["csc_session=abc", "other=def"], accept: "application/json" },
      kept: { seq: 7 },
    };
    logger.info(fields, "an event");
    const [line] = capture.lines();
    expect(JSON.parse(line!)).toMatchObject({
      password: "[REDACTED]",
      headers: { "Set-Cookie": "[REDACTED]", accept: "application/json" },
      kept: { seq: 7 },
    });
    expect(fields.password).toBe(123456789);
    expect(fields.headers["Set-Cookie"]).toEqual(["csc_session=abc", "other=def"]);
  });

  it("sanitizes a serialized line on its own", () => {
    expect(sanitizeLogLine('{"client_secret":"s3cr\\"et","x":"6006491000000001"}')).toBe(
      '{"client_secret":"[REDACTED]","x":"600649******0001"}',
    );
  });
});
