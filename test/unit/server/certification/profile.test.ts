import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/server/config";
import { ProfileError, profileFileSchema, resolveProfile } from "@/lib/server/certification/profile";

const env = {
  CARD_API_AUTH_URL: "https://auth.example.test",
  CARD_API_SANDBOX_URL: "https://sandbox.example.test",
};

describe("certification profile", () => {
  it("defaults to the embedded sandbox's fixtures", () => {
    const config = loadConfig({});
    const profile = resolveProfile(config, config.environments[0]!, undefined, {});
    expect(profile.primary.clientId).toBe("demo-client");
    expect(profile.withoutScope?.clientId).toBe("demo-reports-only");
    expect(profile.shortLived?.clientId).toBe("demo-short-lived");
    expect(profile.cards).toEqual({ active: "6006491000000001", declined: "6006491000000027" });
    expect(profile.transactionLookup).toBe(true);
  });

  it("a real upstream needs cards; secrets come from the named variables, else the server's credentials", () => {
    const config = loadConfig({
      ...env,
      CARD_API_CLIENT_ID: "server-client",
      CARD_API_CLIENT_SECRET: "s3cret-value",
    });
    const sandbox = config.environments.find((item) => item.name === "sandbox")!;
    expect(() => resolveProfile(config, sandbox, undefined, {})).toThrow(ProfileError);
    const file = profileFileSchema.parse({
      without_scope: { client_id: "reports", client_secret_env: "REPORTS_SECRET" },
      cards: { active: "1234567890123" },
    });
    expect(() => resolveProfile(config, sandbox, file, {})).toThrow(/REPORTS_SECRET is not set/);
    const profile = resolveProfile(config, sandbox, file, { REPORTS_SECRET: "x" });
    expect(profile.primary).toEqual({ clientId: "server-client", clientSecret: "s3cret-value" });
    expect(profile.withoutScope).toEqual({ clientId: "reports", clientSecret: "x" });
    expect(profile.transactionLookup).toBe(false);
    expect(profileFileSchema.safeParse({ cards: { active: "12" } }).success).toBe(false);
  });
});
