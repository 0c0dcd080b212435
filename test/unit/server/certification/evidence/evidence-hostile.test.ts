/**
 * The evidence reader against hostile zips: bounds (entry count, declared and actual sizes, totals) refuse
 * with bundle_too_large before anything large is inflated; names are own entries (an added `__proto__`,
 * `constructor` or `toString` is an added file); a name that appears twice makes a bundle not intact.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { consoleInfo, specificationInfo } from "@/lib/server/certification/build-info";
import { buildEvidenceBundle } from "@/lib/server/certification/evidence/bundle";
import { BUNDLE_LIMITS } from "@/lib/server/certification/evidence/read-bundle";
import { verifyEvidence } from "@/lib/server/certification/evidence/verify";
import { loadEvidenceSigningKey } from "@/lib/server/certification/signing-key";
import { ApiError } from "@/lib/server/util/errors";
import {
  declaredHugeZip,
  entriesOf,
  writeZip,
  zipBomb,
  type RawEntry,
} from "../../../../support/hostile-zips";
import { certify } from "../harness";
import { fileTempDir } from "@/test/support/temp-dirs";

let entries: RawEntry[];

beforeAll(async () => {
  const { run } = await certify({ caseIds: ["TOK-01", "BI-01"] });
  const key = await loadEvidenceSigningKey({
    env: { DATA_DIR: fileTempDir("hostile-key-") },
  });
  const { zip } = await buildEvidenceBundle({
    run,
    key,
    console: consoleInfo(),
    specification: specificationInfo(),
  });
  entries = entriesOf(zip);
});

async function refusal(zip: Uint8Array, limits = BUNDLE_LIMITS): Promise<ApiError> {
  const error: unknown = await verifyEvidence(zip, { limits }).then(
    (result) => new Error(`accepted: ${JSON.stringify(result.problems)}`),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ApiError)) throw error;
  return error;
}

describe("bounded reading", () => {
  it("refuses 300 entries that each declare 3 GiB, before inflating any", async () => {
    const error = await refusal(declaredHugeZip(300));
    expect(error.code).toBe("bundle_too_large");
    expect(error.status).toBe(413);
    expect(error.message).toMatch(/declares 3221225472 bytes/);
  });

  it("refuses more entries than the bound", async () => {
    const error = await refusal(declaredHugeZip(20, 2), { ...BUNDLE_LIMITS, maxEntries: 10 });
    expect(error.message).toMatch(/20 entries/);
  });

  it("refuses a zip bomb whose size is declared truthfully, and one whose total is past the bound", async () => {
    const single = await refusal(zipBomb({ mib: 65 }));
    expect(single.message).toMatch(/bomb-0\.bin declares/);
    const total = await refusal(zipBomb({ mib: 3, entries: 4 }), {
      ...BUNDLE_LIMITS,
      maxTotalBytes: 10 * 1024 * 1024,
    });
    expect(total.message).toMatch(/in all/);
  });

  it("stops inflating an entry that lies about its size at the size it declares: not intact", async () => {
    const result = await verifyEvidence(zipBomb({ mib: 50, lie: true }));
    expect(result.ok).toBe(false);
    expect(result.problems.join(" ")).toMatch(/inflates past the 1024 bytes it declares/);
  });

  it("answers for an archive with one damaged byte anywhere (refused only by a declared bound), not intact when it hits a file", async () => {
    const intact = writeZip(entries);
    for (let at = 0; at < intact.length; at += Math.max(1, Math.floor(intact.length / 64))) {
      const damaged = intact.slice();
      damaged[at] = damaged[at]! ^ 0xff;
      // A result, or a refusal by a bound the damaged header now declares (a size field), never for
      // inflating past what an entry declares.
      const outcome = await verifyEvidence(damaged).catch((error: unknown) => error);
      if (outcome instanceof ApiError) expect(outcome.message, `byte ${at}`).not.toMatch(/inflates past/);
      else expect(outcome, `byte ${at}`).toHaveProperty("ok");
    }
    // The first entry's data starts after its 30-byte local header and its name.
    const inData = intact.slice();
    const at = 30 + new TextEncoder().encode(entries[0]!.name).length + 2;
    inData[at] = inData[at]! ^ 0xff;
    expect((await verifyEvidence(inData)).ok).toBe(false);
  });

  it("still reads an intact bundle, and calls garbage unreadable (a result, not a refusal)", async () => {
    expect((await verifyEvidence(writeZip(entries))).problems).toEqual([]);
    const garbage = await verifyEvidence(new TextEncoder().encode("not a zip at all"));
    expect(garbage.ok).toBe(false);
    expect(garbage.problems[0]).toMatch(/not a readable zip/);
  });

  it("answers every one of several uploads read at once (they take turns)", async () => {
    const zips = [writeZip(entries), declaredHugeZip(3), writeZip(entries), zipBomb({ mib: 70 })];
    const settled = await Promise.allSettled(zips.map((zip) => verifyEvidence(zip)));
    expect(settled.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "rejected",
    ]);
  });
});

describe("names", () => {
  it.each(["__proto__", "constructor", "toString", "hasOwnProperty"])(
    "an added entry named %s is not listed in the manifest",
    async (name) => {
      const result = await verifyEvidence(writeZip([...entries, { name, bytes: new Uint8Array([1]) }]));
      expect(result.ok).toBe(false);
      expect(result.problems).toContain(`${name} is not listed in the manifest (added after signing).`);
    },
  );

  it.each(["results.csv", "manifest.json", "exchanges/"])(
    "a second entry named like %s makes the bundle not intact, whichever copy comes first",
    async (target) => {
      const original = entries.find((entry) => entry.name.startsWith(target))!;
      const forged = { name: original.name, bytes: new TextEncoder().encode("forged") };
      for (const order of [
        [...entries, forged],
        [forged, ...entries],
      ]) {
        const result = await verifyEvidence(writeZip(order));
        expect(result.ok).toBe(false);
        expect(result.problems.join("\n")).toContain(`${original.name} appears more than once`);
      }
    },
  );
});
