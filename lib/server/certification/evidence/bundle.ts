/**
 * The evidence bundle (docs/design.md §8): a zip of the manifest, the exchanges, HAR, JUnit, an HTML report,
 * a CSV, SHA256SUMS and an EdDSA JWS over the manifest, which lists every other file's SHA-256.
 */
import "server-only";
import { createHash } from "node:crypto";
import { zipSync, strToU8 } from "fflate";
import { CompactSign } from "jose";
import type { ConsoleInfo, SpecificationInfo } from "../build-info";
import type { EvidenceSigningKey } from "../signing-key";
import { countVerdicts, type RunState, type UpstreamIds } from "@/lib/shared/certification-contract";
import { buildResultsCsv } from "./csv";
import { buildHar } from "./har";
import { buildJunit } from "./junit";
import { buildReportHtml } from "./report-html";
import { buildVerifyMd } from "./verify-md";

const MANIFEST_FORMAT = "card-services-console/certification-evidence@1";
/** Files that the manifest cannot list: itself, its signature, and the checksum list that covers it. */
export const UNLISTED_FILES = ["manifest.json", "manifest.jws", "SHA256SUMS"] as const;

function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function json(value: unknown): Uint8Array {
  return strToU8(`${JSON.stringify(value, null, 2)}\n`);
}

function exchangeFile(index: number, id: string, operation: string): string {
  return `exchanges/${String(index + 1).padStart(3, "0")}-${operation}-${id}.json`;
}

function allUpstreamIds(run: RunState): UpstreamIds {
  const merged: UpstreamIds = {
    transaction_ids: [],
    external_ids: [],
    x_request_ids: [],
    meta_request_ids: [],
  };
  for (const result of run.results) {
    for (const key of Object.keys(merged) as (keyof UpstreamIds)[]) {
      for (const id of result.upstream_ids[key]) if (!merged[key].includes(id)) merged[key].push(id);
    }
  }
  return merged;
}

export interface EvidenceInput {
  run: RunState;
  key: EvidenceSigningKey;
  console: ConsoleInfo;
  specification: SpecificationInfo;
  /** Fields the manifest carries besides a run's (a client certification's `kind` and its own checks). */
  manifestExtra?: Record<string, unknown>;
}

export interface EvidenceBundle {
  zip: Uint8Array;
  manifest: Record<string, unknown>;
  fileName: string;
}

export async function buildEvidenceBundle(input: EvidenceInput): Promise<EvidenceBundle> {
  const { run, key } = input;
  const { files, exchangeIndex } = evidenceFiles(input);
  const manifest = buildManifest(input, exchangeIndex, files);
  const manifestBytes = json(manifest);
  files["manifest.json"] = manifestBytes;
  files["SHA256SUMS"] = strToU8(checksums(files));
  const jws = await new CompactSign(manifestBytes)
    .setProtectedHeader({ alg: "EdDSA", kid: key.kid, cty: "application/json" })
    .sign(key.privateKey);
  files["manifest.jws"] = strToU8(`${jws}\n`);

  const mtime = new Date(run.finished_at ?? run.started_at);
  const zip = zipSync(
    Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, [bytes, { mtime }]])),
    { level: 6 },
  );
  const stamp = run.started_at.replace(/[:.]/g, "-");
  return { zip, manifest, fileName: `certification-${run.environment.name}-${stamp}.zip` };
}

type ExchangeIndexEntry = ReturnType<typeof evidenceFiles>["exchangeIndex"][number];

/** Every file the manifest names: each exchange, the HAR, JUnit, HTML and CSV reports, and the public key. */
function evidenceFiles({ run, key, console: consoleInfo, specification }: EvidenceInput) {
  const caseOfExchange = new Map<string, string>();
  for (const result of run.results) for (const id of result.exchange_ids) caseOfExchange.set(id, result.id);
  const exchangesById = new Map(run.exchanges.map((record) => [record.id, record]));

  const files: Record<string, Uint8Array> = {};
  const exchangeIndex = run.exchanges.map((record, index) => {
    const file = exchangeFile(index, record.id, record.operation);
    files[file] = json(record);
    return {
      id: record.id,
      file,
      case_id: caseOfExchange.get(record.id) ?? null,
      operation: record.operation,
      status: record.response.status,
      ...(record.request_id === undefined ? {} : { request_id: record.request_id }),
    };
  });
  files["run.har"] = json(
    buildHar(run.exchanges, (id) => caseOfExchange.get(id), {
      name: consoleInfo.name,
      version: consoleInfo.version,
    }),
  );
  files["junit.xml"] = strToU8(buildJunit(run, exchangesById));
  files["report.html"] = strToU8(buildReportHtml(run, { console: consoleInfo, specification, kid: key.kid }));
  files["results.csv"] = strToU8(buildResultsCsv(run.results));
  files["public-key.jwk"] = json(key.publicJwk);
  files["VERIFY.md"] = strToU8(buildVerifyMd(key.kid));
  return { files, exchangeIndex };
}

function buildManifest(
  { run, key, console: consoleInfo, specification, manifestExtra = {} }: EvidenceInput,
  exchangeIndex: ExchangeIndexEntry[],
  files: Record<string, Uint8Array>,
): Record<string, unknown> {
  return {
    format: MANIFEST_FORMAT,
    ...manifestExtra,
    console: consoleInfo,
    specification,
    run: {
      id: run.id,
      status: run.status,
      operator: run.operator,
      ...(run.operator_id === undefined ? {} : { operator_id: run.operator_id }),
      started_at: run.started_at,
      finished_at: run.finished_at ?? null,
      allow_production_gift: run.allow_production_gift,
    },
    environment: run.environment,
    client_id: run.client_id,
    tokens: run.tokens,
    summary: countVerdicts(run.results),
    cases: run.results,
    upstream_ids: allUpstreamIds(run),
    exchanges: exchangeIndex,
    signing_key: { alg: "EdDSA", crv: "Ed25519", kid: key.kid },
    files: Object.fromEntries(
      Object.entries(files)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, bytes]) => [name, sha256Hex(bytes)]),
    ),
  };
}

/** SHA256SUMS: every other file, sorted by name, as `sha256sum -c` reads it. */
function checksums(files: Record<string, Uint8Array>): string {
  return Object.entries(files)
    .filter(([name]) => name !== "SHA256SUMS")
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, bytes]) => `${sha256Hex(bytes)}  ${name}\n`)
    .join("");
}

/** A bundle as a download: `application/zip` under its own name, with only safe characters in the header. */
export function bundleResponse(bundle: Pick<EvidenceBundle, "zip" | "fileName">): Response {
  return new Response(bundle.zip as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${bundle.fileName.replace(/[^\w.-]/g, "_")}"`,
      "Content-Length": String(bundle.zip.byteLength),
    },
  });
}
