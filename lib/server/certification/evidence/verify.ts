/**
 * Checks an evidence bundle: the JWS over the manifest (with the bundle's key, or a trusted one), the
 * manifest's SHA-256 of every file, SHA256SUMS, and that no file was added. Returns every problem found.
 */
import { createHash } from "node:crypto";
import { strFromU8, unzipSync } from "fflate";
import { calculateJwkThumbprint, compactVerify, importJWK, type JWK } from "jose";
import { z } from "zod";
import { UNLISTED_FILES } from "./bundle";

export interface VerifyResult {
  ok: boolean;
  problems: string[];
  /** What was checked, for people. */
  checked: string[];
  manifest?: Record<string, unknown>;
}

const manifestShape = z
  .object({ files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)) })
  .passthrough();

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

export async function verifyEvidence(
  zip: Uint8Array,
  options: { trustedKey?: JWK } = {},
): Promise<VerifyResult> {
  const problems: string[] = [];
  const checked: string[] = [];
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip);
  } catch {
    return { ok: false, problems: ["The file is not a readable zip archive."], checked };
  }
  const manifestBytes = files["manifest.json"];
  const jwsBytes = files["manifest.jws"];
  const keyBytes = files["public-key.jwk"];
  if (!manifestBytes) problems.push("manifest.json is missing.");
  if (!jwsBytes) problems.push("manifest.jws is missing.");
  if (!keyBytes && !options.trustedKey)
    problems.push("public-key.jwk is missing and no trusted key was given.");
  if (!manifestBytes || !jwsBytes || (!keyBytes && !options.trustedKey))
    return { ok: false, problems, checked };

  // 1. The signature, and that it covers exactly this manifest.
  let bundleKey: JWK | undefined;
  try {
    bundleKey = keyBytes ? (JSON.parse(strFromU8(keyBytes)) as JWK) : undefined;
  } catch {
    problems.push("public-key.jwk is not JSON.");
  }
  const verifyKey = options.trustedKey ?? bundleKey;
  if (verifyKey) {
    const which = options.trustedKey ? "the trusted key" : "the bundle's public-key.jwk";
    try {
      const key = await importJWK({ ...verifyKey, alg: "EdDSA" }, "EdDSA");
      const { payload, protectedHeader } = await compactVerify(strFromU8(jwsBytes).trim(), key, {
        algorithms: ["EdDSA"],
      });
      checked.push(`signature (EdDSA, kid ${String(protectedHeader.kid)}) verified with ${which}`);
      if (!equalBytes(payload, manifestBytes)) {
        problems.push(
          "manifest.json differs from the manifest that manifest.jws signed (the manifest was changed).",
        );
      } else checked.push("manifest.json is the signed manifest");
    } catch {
      problems.push(`manifest.jws does not verify with ${which} (wrong key, or the signature was changed).`);
    }
    if (options.trustedKey && bundleKey) {
      const [trusted, inBundle] = await Promise.all([
        calculateJwkThumbprint(options.trustedKey).catch(() => "?"),
        calculateJwkThumbprint(bundleKey).catch(() => "!"),
      ]);
      if (trusted !== inBundle) problems.push("public-key.jwk in the bundle is not the trusted key.");
    }
  }

  // 2. Every file the manifest lists, and nothing else.
  let manifest: z.infer<typeof manifestShape> | undefined;
  try {
    manifest = manifestShape.parse(JSON.parse(strFromU8(manifestBytes)));
  } catch {
    problems.push("manifest.json is not a manifest (no files list).");
  }
  if (manifest) {
    for (const [name, expected] of Object.entries(manifest.files)) {
      const bytes = files[name];
      if (!bytes) problems.push(`${name} is listed in the manifest but missing.`);
      else if (sha256(bytes) !== expected)
        problems.push(`${name} was changed: its SHA-256 differs from the manifest.`);
    }
    checked.push(`${Object.keys(manifest.files).length} files against the manifest's SHA-256`);
    for (const name of Object.keys(files)) {
      if (!(name in manifest.files) && !(UNLISTED_FILES as readonly string[]).includes(name)) {
        problems.push(`${name} is not listed in the manifest (added after signing).`);
      }
    }
  }

  // 3. SHA256SUMS agrees (it also covers manifest.json).
  const sums = files["SHA256SUMS"];
  if (!sums) problems.push("SHA256SUMS is missing.");
  else {
    for (const line of strFromU8(sums).split("\n").filter(Boolean)) {
      const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
      if (!match) {
        problems.push(`SHA256SUMS has a malformed line: ${line.slice(0, 80)}`);
        continue;
      }
      const bytes = files[match[2]!];
      if (!bytes) problems.push(`SHA256SUMS lists ${match[2]}, which is missing.`);
      else if (sha256(bytes) !== match[1]) problems.push(`${match[2]} does not match SHA256SUMS.`);
    }
    checked.push("SHA256SUMS");
  }
  return {
    ok: problems.length === 0,
    problems: [...new Set(problems)],
    checked,
    ...(manifest ? { manifest } : {}),
  };
}
