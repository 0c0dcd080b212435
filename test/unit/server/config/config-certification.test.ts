/** The certification variables go through lib/server/config: a bad CERTIFICATION_PROFILE stops the start. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/lib/server/config";

const folder = mkdtempSync(path.join(tmpdir(), "config-certification-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(folder, name);
  writeFileSync(file, text);
  return file;
}

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("certification configuration", () => {
  it("reads CERTIFICATION_PROFILE, CERTIFICATION_SPEC_PATH and SOURCE_COMMIT (GIT_COMMIT as its older name)", () => {
    const profile = write("good.json", JSON.stringify({ cards: { active: "6006491000000001" } }));
    expect(
      loadConfig({
        CERTIFICATION_PROFILE: profile,
        CERTIFICATION_SPEC_PATH: "/spec.md",
        SOURCE_COMMIT: "abc",
      }).certification,
    ).toEqual({
      profilePath: profile,
      specPath: "/spec.md",
      sourceCommit: "abc",
      trustedKeys: [],
      runStaleSeconds: 60,
    });
    expect(loadConfig({ GIT_COMMIT: "def" }).certification.sourceCommit).toBe("def");
    expect(loadConfig({ CERTIFICATION_PROFILE: " " }).certification.profilePath).toBeUndefined();
  });

  it("reads CERTIFICATION_RUN_STALE_SECONDS (default a minute) and refuses one outside 3 to 3600", () => {
    expect(loadConfig({ CERTIFICATION_RUN_STALE_SECONDS: "6" }).certification.runStaleSeconds).toBe(6);
    expect(loadConfig({}).certification.runStaleSeconds).toBe(60);
    for (const value of ["1", "7200", "soon"]) {
      expect(refusal({ CERTIFICATION_RUN_STALE_SECONDS: value }).variable).toBe(
        "CERTIFICATION_RUN_STALE_SECONDS",
      );
    }
  });

  it("refuses a profile that is missing, not JSON or not a profile, naming the variable and the reason", () => {
    const missing = refusal({ CERTIFICATION_PROFILE: path.join(folder, "absent.json") });
    expect(missing.variable).toBe("CERTIFICATION_PROFILE");
    expect(missing.message).toMatch(/CERTIFICATION_PROFILE names a file that cannot be read \(ENOENT\)/);
    expect(refusal({ CERTIFICATION_PROFILE: write("bad.json", "{cards") }).message).toMatch(/is not JSON/);
    const wrong = refusal({
      CERTIFICATION_PROFILE: write("wrong.json", JSON.stringify({ cards: { active: "12" } })),
    });
    expect(wrong.message).toMatch(/is not a profile: cards\.active must be 12 to 19 digits/);
  });

  it("reads EVIDENCE_TRUSTED_KEYS: thumbprints, each optionally named, and refuses anything else", () => {
    const partner = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs";
    const other = "a".repeat(43);
    expect(
      loadConfig({ EVIDENCE_TRUSTED_KEYS: ` Partner console (EU):${partner} , ${other},${other}` })
        .certification.trustedKeys,
    ).toEqual([{ thumbprint: partner, name: "Partner console (EU)" }, { thumbprint: other }]);
    expect(loadConfig({ EVIDENCE_TRUSTED_KEYS: " " }).certification.trustedKeys).toEqual([]);
    const short = refusal({ EVIDENCE_TRUSTED_KEYS: "partner:abc" });
    expect(short.variable).toBe("EVIDENCE_TRUSTED_KEYS");
    expect(short.message).toMatch(/comma-separated key thumbprints .* \(got "partner:abc"\)/);
    expect(refusal({ EVIDENCE_TRUSTED_KEYS: `<b>:${partner}` }).message).toMatch(/a name is 1 to 64/);
    expect(refusal({ EVIDENCE_TRUSTED_KEYS: "/etc/keys.jwks" }).variable).toBe("EVIDENCE_TRUSTED_KEYS");
  });
});
