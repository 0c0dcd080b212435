/**
 * An upstream that repeats the secrets and tokens it receives (in error details, headers and bodies, as
 * is and base64-encoded) and issues opaque tokens: nothing of them may reach the run's checks, its stored
 * state, its events or any file of the signed bundle.
 */
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { consoleInfo, specificationInfo } from "@/lib/server/certification/build-info";
import { buildEvidenceBundle } from "@/lib/server/certification/evidence/bundle";
import { loadEvidenceSigningKey } from "@/lib/server/certification/signing-key";
import { echoingUpstream, leakForms } from "../../../support/echo-upstream";
import { certify } from "./harness";
import { fileTempDir } from "@/test/support/temp-dirs";

const SECRET = "s3cr3t-client-value";

function leaksIn(text: string, values: string[]): string[] {
  return leakForms(values).filter((value) => text.includes(value));
}

describe("certification against an upstream that echoes secrets", () => {
  it("keeps no secret or token in checks, the stored run, events or the bundle", async () => {
    const upstream = echoingUpstream();
    const { run, events, store } = await certify({
      wrap: upstream.wrap,
      demoSecret: SECRET,
      profile: {
        primary: { clientId: "demo-client", clientSecret: SECRET },
        shortLived: { clientId: "demo-short-lived", clientSecret: SECRET },
        withoutScope: { clientId: "demo-reports-only", clientSecret: SECRET },
      },
    });
    const seen = upstream.seen();
    // The echo really happened: the wrong secret of TOK-02, the real one, opaque tokens.
    expect(seen).toContain(`${SECRET}-wrong`);
    expect(seen).toContain(SECRET);
    expect(seen.some((value) => value.startsWith("opaque-"))).toBe(true);
    expect(run.results.some((result) => result.verdict === "fail")).toBe(true);

    expect(leaksIn(JSON.stringify(run), seen)).toEqual([]);
    expect(leaksIn(JSON.stringify(await store.get(run.id)), seen)).toEqual([]);
    expect(leaksIn(JSON.stringify(events), seen)).toEqual([]);
    const reasons = run.results.map((result) => result.reason ?? "").join("\n");
    expect(reasons).toContain("[REDACTED]");

    const key = await loadEvidenceSigningKey({
      env: { DATA_DIR: fileTempDir("echo-key-") },
    });
    const { zip } = await buildEvidenceBundle({
      run,
      key,
      console: consoleInfo(),
      specification: specificationInfo(),
    });
    const files = unzipSync(zip);
    expect(Object.keys(files)).toEqual(expect.arrayContaining(["run.har", "junit.xml", "report.html"]));
    for (const [name, bytes] of Object.entries(files)) {
      expect(leaksIn(strFromU8(bytes), seen), name).toEqual([]);
    }
  });
});
