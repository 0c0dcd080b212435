import { describe, expect, test } from "vitest";
import { sharedSettingProblems } from "@/lib/server/database/readiness";

const everyKey = {
  databaseUrl: "postgres://console@db/console",
  sessionSecretGenerated: false,
  auditHmacKey: "k".repeat(32),
  evidenceSigningKey: "-----BEGIN PRIVATE KEY-----",
  embeddedSandbox: true,
  sandbox: { signingKey: "s".repeat(32) },
};

describe("sharedSettingProblems (what /api/ready names when instances cannot share their work)", () => {
  test("a single instance on its embedded database may generate everything", () => {
    expect(
      sharedSettingProblems({
        databaseUrl: undefined,
        sessionSecretGenerated: true,
        auditHmacKey: undefined,
        evidenceSigningKey: undefined,
        embeddedSandbox: true,
        sandbox: { signingKey: undefined },
      }),
    ).toEqual([]);
  });

  test("on a shared database, every secret must come from the environment", () => {
    expect(sharedSettingProblems(everyKey)).toEqual([]);
    const missing = sharedSettingProblems({
      ...everyKey,
      sessionSecretGenerated: true,
      auditHmacKey: undefined,
      evidenceSigningKey: undefined,
      sandbox: { signingKey: undefined },
    });
    expect(missing.map((problem) => problem.split(" ")[0])).toEqual([
      "SESSION_SECRET",
      "AUDIT_HMAC_KEY",
      "EVIDENCE_SIGNING_KEY",
      "SANDBOX_SIGNING_KEY",
    ]);
  });

  test("the sandbox signing key matters only while the embedded sandbox is on", () => {
    expect(
      sharedSettingProblems({ ...everyKey, embeddedSandbox: false, sandbox: { signingKey: undefined } }),
    ).toEqual([]);
  });
});
