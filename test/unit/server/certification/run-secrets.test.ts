/**
 * A run's secrets are removed in every form an upstream may repeat them (as sent, inside a JSON string,
 * %-encoded, base64), and scrubbing leaves text without them exactly as it was.
 */
import { describe, expect, it } from "vitest";
import { RunSecrets } from "@/lib/server/certification/run-secrets";

const SECRET = 'p@ss/wörd"+= 1';

describe("RunSecrets", () => {
  it("removes each encoded form of a secret, and of the wrong secret derived from it", () => {
    const secrets = new RunSecrets();
    secrets.add(SECRET, `${SECRET}-wrong`);
    const forms = [
      SECRET,
      JSON.stringify(SECRET).slice(1, -1),
      encodeURIComponent(SECRET),
      Buffer.from(SECRET).toString("base64"),
      Buffer.from(`${SECRET}-wrong`).toString("base64url"),
    ];
    for (const form of forms) {
      const cleaned = secrets.text(`upstream said: ${form}!`);
      expect(cleaned).toBe("upstream said: [REDACTED]!");
    }
  });

  it("scrubs keys and values deeply, leaving strings without a secret untouched", () => {
    const secrets = new RunSecrets();
    secrets.add("opaque-token-123456");
    const fingerprint = "123456789012";
    const scrubbed = secrets.scrub({
      ["opaque-token-123456"]: ["Bearer opaque-token-123456"],
      fingerprint,
      card: "6006491000000001",
    });
    expect(scrubbed).toEqual({
      "[REDACTED]": ["Bearer [REDACTED]"],
      fingerprint,
      card: "6006491000000001",
    });
  });

  it("ignores empty and too-short values, which would redact ordinary words", () => {
    const secrets = new RunSecrets();
    secrets.add(undefined, null, "", "abc");
    expect(secrets.list()).toEqual([]);
    expect(secrets.text("abc")).toBe("abc");
  });
});
