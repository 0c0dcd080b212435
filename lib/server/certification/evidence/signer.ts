/**
 * Who signed a bundle. An intact bundle proves only that whoever holds the key inside it signed it: anyone can
 * edit a bundle and sign it again with a key of their own. So the key is named by its RFC 7638 thumbprint and
 * compared with this console's key and the keys the operator trusts (EVIDENCE_TRUSTED_KEYS); any other is
 * `unknown`, never proof from this console.
 */
import { strFromU8 } from "fflate";
import { calculateJwkThumbprint, type JWK } from "jose";
import type { EvidenceSigner, VerifyResponse } from "@/lib/shared/certification-api";
import { checkBundle, readEvidence, unreadableResult, type ReadBundle } from "./verify";

export interface SignerKeys {
  /** This console's evidence key's thumbprint. */
  own: string;
  trusted: readonly { thumbprint: string; name?: string }[];
}

/** The signer of a bundle whose signature verified with its public-key.jwk; null when that key is unreadable. */
async function identifySigner(bundle: ReadBundle, keys: SignerKeys): Promise<EvidenceSigner | null> {
  const bytes = bundle.kept.get("public-key.jwk");
  if (!bytes) return null;
  let thumbprint: string;
  try {
    thumbprint = await calculateJwkThumbprint(JSON.parse(strFromU8(bytes)) as JWK);
  } catch {
    return null;
  }
  if (thumbprint === keys.own) return { kind: "this_console", thumbprint };
  const trusted = keys.trusted.find((key) => key.thumbprint === thumbprint);
  if (trusted) return { kind: "trusted", thumbprint, ...(trusted.name ? { name: trusted.name } : {}) };
  return { kind: "unknown", thumbprint };
}

type ManifestView = { run?: Record<string, unknown>; environment?: { name?: unknown }; summary?: unknown };

/** What the manifest says about its run, read as text (an uploaded manifest is not trusted as typed). */
function runOf(manifest: ManifestView): NonNullable<VerifyResponse["run"]> {
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  return {
    id: text(manifest.run?.id),
    environment: text(manifest.environment?.name),
    status: text(manifest.run?.status),
    operator: text(manifest.run?.operator),
    started_at: text(manifest.run?.started_at),
    finished_at: text(manifest.run?.finished_at) ?? null,
    summary:
      manifest.summary && typeof manifest.summary === "object"
        ? (manifest.summary as Record<string, number>)
        : undefined,
  };
}

/**
 * The console's check of an uploaded bundle: intact under its own key, and who that key is. Throws ApiError
 * bundle_too_large (413) for a bundle past the reader's bounds.
 */
export async function verifyUploadedBundle(zip: Uint8Array, keys: SignerKeys): Promise<VerifyResponse> {
  const bundle = await readEvidence(zip);
  const result = "unreadable" in bundle ? unreadableResult(bundle.unreadable) : await checkBundle(bundle);
  const signer = result.ok && !("unreadable" in bundle) ? await identifySigner(bundle, keys) : null;
  const manifest = result.manifest as ManifestView | undefined;
  return {
    ok: result.ok,
    problems: result.problems,
    checked: result.checked,
    signed_by_this_console: signer?.kind === "this_console",
    signer,
    ...(manifest ? { run: runOf(manifest) } : {}),
  };
}
