import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { exportJWK, CompactSign } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE_SPEC_SHA256, consoleInfo, specificationInfo } from "@/lib/server/certification/build-info";
import { buildEvidenceBundle } from "@/lib/server/certification/evidence/bundle";
import { verifyEvidence } from "@/lib/server/certification/evidence/verify";
import { loadEvidenceSigningKey, type EvidenceSigningKey } from "@/lib/server/certification/signing-key";
import type { RunState } from "@/lib/shared/certification-contract";
import { certify } from "./harness";
import { fileTempDir } from "@/test/support/temp-dirs";

let run: RunState;
let key: EvidenceSigningKey;
let zip: Uint8Array;
let files: Record<string, Uint8Array>;

function rezip(changed: Record<string, Uint8Array>): Uint8Array {
  return zipSync(changed);
}

beforeAll(async () => {
  ({ run } = await certify());
  key = await loadEvidenceSigningKey({
    env: { DATA_DIR: fileTempDir("evidence-key-") },
  });
  ({ zip } = await buildEvidenceBundle({
    run,
    key,
    console: consoleInfo(),
    specification: specificationInfo(),
  }));
  files = unzipSync(zip);
});

describe("evidence bundle", () => {
  it("holds every file of docs/design.md §8, and verifies intact", async () => {
    const names = Object.keys(files);
    for (const name of [
      "manifest.json",
      "manifest.jws",
      "run.har",
      "junit.xml",
      "report.html",
      "results.csv",
      "SHA256SUMS",
      "public-key.jwk",
      "VERIFY.md",
    ]) {
      expect(names).toContain(name);
    }
    expect(names.filter((name) => name.startsWith("exchanges/"))).toHaveLength(run.exchanges.length);
    const result = await verifyEvidence(zip);
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
    const trusted = await verifyEvidence(zip, { trustedKey: key.publicJwk });
    expect(trusted.ok).toBe(true);
  });

  it("the manifest names the console, the specification, the run and every case with its ids", () => {
    const manifest = JSON.parse(strFromU8(files["manifest.json"]!));
    expect(manifest.specification.sha256).toBe(CATALOGUE_SPEC_SHA256);
    expect(manifest.console.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(manifest.run.operator).toBe("tester@example.test");
    expect(manifest.environment).toEqual(run.environment);
    expect(manifest.client_id).toBe("demo-client");
    expect(manifest.cases).toHaveLength(run.results.length);
    expect(manifest.upstream_ids.transaction_ids.length).toBeGreaterThan(3);
    expect(manifest.tokens[0].fingerprint).toMatch(/^[0-9a-f]{12}$/);
    expect(Object.keys(manifest.files)).toContain("report.html");
  });

  it("never holds a secret, a token or a full card number", () => {
    for (const [name, bytes] of Object.entries(files)) {
      const text = strFromU8(bytes);
      expect(text, name).not.toContain("demo-secret");
      // manifest.jws is itself a JWS (the signature); no other file may hold anything JWT-shaped.
      if (name !== "manifest.jws") expect(text, name).not.toMatch(/eyJ[\w-]{4,}\.[\w-]{4,}\./);
      expect(text, name).not.toMatch(/6006491000000001|6006491000000027/);
    }
  });

  it("HAR 1.2, JUnit with one test case per case, CSV with one row per case, HTML without script", () => {
    const har = JSON.parse(strFromU8(files["run.har"]!));
    expect(har.log.version).toBe("1.2");
    expect(har.log.entries).toHaveLength(run.exchanges.length);
    const junit = strFromU8(files["junit.xml"]!);
    expect(junit.match(/<testcase /g)).toHaveLength(run.results.length);
    expect(junit).toContain("<system-out><![CDATA[");
    expect(junit.match(/<skipped /g)).toHaveLength(1);
    expect(strFromU8(files["results.csv"]!).trim().split("\r\n")).toHaveLength(run.results.length + 1);
    const html = strFromU8(files["report.html"]!);
    expect(html).not.toMatch(/<script|javascript:|\son\w+=/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it("the embedded specification hash is the specification's, when the file is at hand", () => {
    const spec = path.resolve("..", "shared", "spec", "card-services-api.md");
    let text: Buffer | undefined;
    try {
      text = readFileSync(spec);
    } catch {
      return; // A checkout without the shared folder: nothing to compare with.
    }
    expect(specificationInfo().found_sha256).toBe(CATALOGUE_SPEC_SHA256);
    expect(text.length).toBeGreaterThan(0);
  });

  it.each([
    "report.html",
    "results.csv",
    "junit.xml",
    "run.har",
    "public-key.jwk",
    "VERIFY.md",
    "exchanges/",
  ])("a changed %s fails verification, naming the file", async (target) => {
    const name = Object.keys(files).find((candidate) => candidate.startsWith(target))!;
    const changed = { ...files, [name]: strToU8(strFromU8(files[name]!).replace(/a/, "b") + " ") };
    const result = await verifyEvidence(rezip(changed));
    expect(result.ok).toBe(false);
    expect(result.problems.join("\n")).toContain(name);
  });

  it("a changed manifest fails, even with its SHA256SUMS line updated", async () => {
    const manifest = strFromU8(files["manifest.json"]!)
      .replace('"verdict": "fail"', '"verdict": "pass"')
      .replace('"operator": "tester@example.test"', '"operator": "someone-else"');
    const result = await verifyEvidence(rezip({ ...files, "manifest.json": strToU8(manifest) }));
    expect(result.ok).toBe(false);
    expect(result.problems.join("\n")).toContain(
      "manifest.json differs from the manifest that manifest.jws signed",
    );
  });

  it("an added file fails", async () => {
    const result = await verifyEvidence(rezip({ ...files, "exchanges/999-extra.json": strToU8("{}") }));
    expect(result.problems.join("\n")).toContain("exchanges/999-extra.json is not listed");
  });

  it("a wrong key fails: a re-signed bundle against the trusted key, and a signature that is not the key's", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const otherJwk = await exportJWK(publicKey);
    const forged = await new CompactSign(files["manifest.json"]!)
      .setProtectedHeader({ alg: "EdDSA" })
      .sign(privateKey);
    const resigned = rezip({ ...files, "manifest.jws": strToU8(forged) });
    const untrusted = await verifyEvidence(resigned, { trustedKey: key.publicJwk });
    expect(untrusted.ok).toBe(false);
    expect(untrusted.problems.join("\n")).toContain("does not verify with the trusted key");
    const mismatched = await verifyEvidence(zip, { trustedKey: otherJwk });
    expect(mismatched.problems.join("\n")).toContain("public-key.jwk in the bundle is not the trusted key");
  });

  it("the signing key is generated once into DATA_DIR and reused; a configured key must be Ed25519", async () => {
    const dataDir = fileTempDir("evidence-key-");
    const warnings: string[] = [];
    const first = await loadEvidenceSigningKey({
      env: { DATA_DIR: dataDir },
      warn: (message) => warnings.push(message),
    });
    const second = await loadEvidenceSigningKey({
      env: { DATA_DIR: dataDir },
      warn: (message) => warnings.push(message),
    });
    expect(second.kid).toBe(first.kid);
    expect(warnings).toHaveLength(1);
    const pem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }) as string;
    expect((await loadEvidenceSigningKey({ env: { EVIDENCE_SIGNING_KEY: pem } })).source).toBe("environment");
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({
      type: "pkcs8",
      format: "pem",
    }) as string;
    await expect(loadEvidenceSigningKey({ env: { EVIDENCE_SIGNING_KEY: rsa } })).rejects.toThrow(/Ed25519/);
  });
});
