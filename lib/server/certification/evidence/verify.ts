/**
 * Checks an evidence bundle: the JWS over the manifest (with the bundle's key, or a trusted one), the
 * manifest's SHA-256 of every file, SHA256SUMS, that no file was added and that no name appears twice
 * (unzip tools disagree on which copy of a duplicate they show). Returns every problem found.
 *
 * The zip is read by ./read-bundle.ts in a worker, within bounds (413 bundle_too_large past one); names
 * are looked up as own entries of Maps only, so an entry called `__proto__` or `toString` is a file like
 * any other.
 */
import { strFromU8 } from "fflate";
import { calculateJwkThumbprint, compactVerify, importJWK, type JWK } from "jose";
import { z } from "zod";
import type { VerifyResponse } from "@/lib/shared/certification-api";
import { UNLISTED_FILES } from "./bundle";
import { readBundle, type BundleEntry, type BundleLimits } from "./read-bundle";

/** The checks' part of the route's answer (`POST /api/certification/verify`), and the manifest they read. */
export type VerifyResult = Pick<VerifyResponse, "ok" | "problems" | "checked"> & {
  manifest?: Record<string, unknown>;
};

const KEPT_FILES = ["manifest.json", "manifest.jws", "public-key.jwk", "SHA256SUMS"] as const;

const manifestShape = z
  .object({ files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)) })
  .passthrough();
type Manifest = z.infer<typeof manifestShape>;

/** What the checks read: each name's SHA-256 (own entries only), the names seen twice, the small files. */
export interface ReadBundle {
  hashes: Map<string, string>;
  duplicates: string[];
  kept: Map<string, Uint8Array>;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

function index(entries: BundleEntry[]): Pick<ReadBundle, "hashes" | "duplicates"> {
  const hashes = new Map<string, string>();
  const duplicates = new Set<string>();
  for (const entry of entries) {
    if (hashes.has(entry.name)) duplicates.add(entry.name);
    else hashes.set(entry.name, entry.sha256);
  }
  return { hashes, duplicates: [...duplicates] };
}

/** Reads a bundle once (off the request thread); `checkBundle` may then check it with several keys. */
export async function readEvidence(
  zip: Uint8Array,
  limits?: BundleLimits,
): Promise<ReadBundle | { unreadable: string }> {
  const contents = await readBundle(zip, KEPT_FILES, limits);
  if (!contents.readable) return { unreadable: contents.reason };
  return { ...index(contents.entries), kept: contents.kept };
}

async function checkSignature(
  bundle: ReadBundle,
  trustedKey: JWK | undefined,
  problems: string[],
  checked: string[],
): Promise<void> {
  const manifestBytes = bundle.kept.get("manifest.json")!;
  const jwsBytes = bundle.kept.get("manifest.jws")!;
  const keyBytes = bundle.kept.get("public-key.jwk");
  let bundleKey: JWK | undefined;
  try {
    bundleKey = keyBytes ? (JSON.parse(strFromU8(keyBytes)) as JWK) : undefined;
  } catch {
    problems.push("public-key.jwk is not JSON.");
  }
  const verifyKey = trustedKey ?? bundleKey;
  if (!verifyKey) return;
  const which = trustedKey ? "the trusted key" : "the bundle's public-key.jwk";
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
  if (trustedKey && bundleKey) {
    const [trusted, inBundle] = await Promise.all([
      calculateJwkThumbprint(trustedKey).catch(() => "?"),
      calculateJwkThumbprint(bundleKey).catch(() => "!"),
    ]);
    if (trusted !== inBundle) problems.push("public-key.jwk in the bundle is not the trusted key.");
  }
}

/** Every file the manifest lists with its hash, and nothing else in the archive. */
function checkManifestFiles(bundle: ReadBundle, manifest: Manifest, problems: string[], checked: string[]) {
  const listed = new Map(Object.entries(manifest.files));
  for (const [name, expected] of listed) {
    const actual = bundle.hashes.get(name);
    if (actual === undefined) problems.push(`${name} is listed in the manifest but missing.`);
    else if (actual !== expected)
      problems.push(`${name} was changed: its SHA-256 differs from the manifest.`);
  }
  checked.push(`${listed.size} files against the manifest's SHA-256`);
  const unlisted: readonly string[] = UNLISTED_FILES;
  for (const name of bundle.hashes.keys()) {
    if (!listed.has(name) && !unlisted.includes(name)) {
      problems.push(`${name} is not listed in the manifest (added after signing).`);
    }
  }
}

function checkSums(bundle: ReadBundle, problems: string[], checked: string[]): void {
  const sums = bundle.kept.get("SHA256SUMS");
  if (!sums) {
    problems.push("SHA256SUMS is missing.");
    return;
  }
  for (const line of strFromU8(sums).split("\n").filter(Boolean)) {
    const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!match) {
      problems.push(`SHA256SUMS has a malformed line: ${line.slice(0, 80)}`);
      continue;
    }
    const actual = bundle.hashes.get(match[2]!);
    if (actual === undefined) problems.push(`SHA256SUMS lists ${match[2]}, which is missing.`);
    else if (actual !== match[1]) problems.push(`${match[2]} does not match SHA256SUMS.`);
  }
  checked.push("SHA256SUMS");
}

function parseManifest(bytes: Uint8Array, problems: string[]): Manifest | undefined {
  try {
    return manifestShape.parse(JSON.parse(strFromU8(bytes)));
  } catch {
    problems.push("manifest.json is not a manifest (no files list).");
    return undefined;
  }
}

/** Checks a bundle already read: the signature (with `trustedKey` when given), the hashes, the names. */
export async function checkBundle(
  bundle: ReadBundle,
  options: { trustedKey?: JWK } = {},
): Promise<VerifyResult> {
  const problems: string[] = [];
  const checked: string[] = [];
  for (const name of bundle.duplicates) {
    problems.push(
      `${name} appears more than once in the archive (unzip tools disagree on which copy they show).`,
    );
  }
  const missing = ["manifest.json", "manifest.jws"].filter((name) => !bundle.kept.has(name));
  for (const name of missing) problems.push(`${name} is missing.`);
  const noKey = !bundle.kept.has("public-key.jwk") && !options.trustedKey;
  if (noKey) problems.push("public-key.jwk is missing and no trusted key was given.");
  if (missing.length > 0 || noKey) return { ok: false, problems, checked };

  await checkSignature(bundle, options.trustedKey, problems, checked);
  const manifest = parseManifest(bundle.kept.get("manifest.json")!, problems);
  if (manifest) checkManifestFiles(bundle, manifest, problems, checked);
  checkSums(bundle, problems, checked);
  return {
    ok: problems.length === 0,
    problems: [...new Set(problems)],
    checked,
    ...(manifest ? { manifest } : {}),
  };
}

export function unreadableResult(reason: string): VerifyResult {
  return { ok: false, problems: [`The file is not a readable zip archive (${reason}).`], checked: [] };
}

/** Reads and checks a bundle; throws ApiError bundle_too_large past a bound of ./read-bundle.ts. */
export async function verifyEvidence(
  zip: Uint8Array,
  options: { trustedKey?: JWK; limits?: BundleLimits } = {},
): Promise<VerifyResult> {
  const bundle = await readEvidence(zip, options.limits);
  if ("unreadable" in bundle) return unreadableResult(bundle.unreadable);
  return checkBundle(bundle, options);
}

/** `intact`; `other_signer`: nothing was changed, but the trusted key did not sign it; `not_intact`: changed. */
export type EvidenceVerdict = "intact" | "other_signer" | "not_intact";

export interface VerdictResult extends VerifyResult {
  verdict: EvidenceVerdict;
}

async function thumbprintOf(bytes: Uint8Array | undefined): Promise<string> {
  try {
    return bytes ? await calculateJwkThumbprint(JSON.parse(strFromU8(bytes)) as JWK) : "none";
  } catch {
    return "unreadable";
  }
}

/**
 * Reads and checks a bundle, telling tampering from a wrong signer: with a trusted key, a bundle that is
 * intact under its own key but not signed by the trusted one is `other_signer`, not `not_intact`.
 * Throws ApiError bundle_too_large past a bound of ./read-bundle.ts.
 */
export async function verifyEvidenceVerdict(
  zip: Uint8Array,
  options: { trustedKey?: JWK; limits?: BundleLimits } = {},
): Promise<VerdictResult> {
  const bundle = await readEvidence(zip, options.limits);
  if ("unreadable" in bundle) return { ...unreadableResult(bundle.unreadable), verdict: "not_intact" };
  const { trustedKey } = options;
  const ownKey = bundle.kept.get("public-key.jwk");
  // Without a key inside, only the trusted key can say anything: a failure is then not_intact.
  const own = ownKey || !trustedKey ? await checkBundle(bundle) : undefined;
  if (own && !own.ok) return { ...own, verdict: "not_intact" };
  if (!trustedKey) return { ...own!, verdict: "intact" };
  const trusted = await checkBundle(bundle, { trustedKey });
  if (trusted.ok || !own) return { ...trusted, verdict: trusted.ok ? "intact" : "not_intact" };
  const [signer, expected] = [await thumbprintOf(ownKey), await calculateJwkThumbprint(trustedKey)];
  return {
    ...own,
    ok: false,
    verdict: "other_signer",
    problems: [
      `Signed by another key: the bundle is intact under its own public-key.jwk (thumbprint ${signer}), ` +
        `but not signed by the trusted key (thumbprint ${expected}).`,
    ],
  };
}
