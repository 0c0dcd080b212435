/**
 * npm run verify-evidence -- <bundle.zip> [--key public-key.jwk] [--json]
 * The report goes to stdout, whatever the verdict (`--json`: one JSON object); usage errors to stderr.
 * Exit 0: intact (every hash and the signature check out); 1: NOT intact (something was changed, added or
 * is missing, or the zip is past the reader's bounds); 2: usage error; 3: intact, but signed by another key
 * than the one given with --key.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { JWK } from "jose";
import {
  verifyEvidenceVerdict,
  type EvidenceVerdict,
  type VerdictResult,
} from "@/lib/server/certification/evidence/verify";
import { ApiError } from "@/lib/server/util/errors";

const USAGE = "Usage: npm run verify-evidence -- <bundle.zip> [--key trusted-public-key.jwk] [--json]";

const EXIT_CODES: Record<EvidenceVerdict, number> = { intact: 0, not_intact: 1, other_signer: 3 };

interface Args {
  file: string;
  keyFile: string | undefined;
  json: boolean;
}

function parse(): Args | string {
  try {
    const { values, positionals } = parseArgs({
      options: { key: { type: "string" }, json: { type: "boolean", default: false } },
      allowPositionals: true,
      strict: true,
    });
    const [file, ...extra] = positionals;
    if (!file || extra.length > 0) return USAGE;
    return { file, keyFile: values.key, json: values.json };
  } catch (error) {
    return `verify-evidence: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`;
  }
}

function headline(file: string, result: VerdictResult, keyGiven: boolean): string {
  switch (result.verdict) {
    case "intact":
      return `${file}: intact.${keyGiven ? "" : " (Signed by the key inside the bundle; pass --key to check who signed.)"}`;
    case "other_signer":
      return `${file}: intact, but signed by another key (not the one given with --key).`;
    case "not_intact":
      return `${file}: NOT intact`;
  }
}

/** One stream, stdout: people read it in order; `--json` is for scripts. */
function report(args: Args, result: VerdictResult): void {
  if (args.json) {
    const { verdict, ok, problems, checked } = result;
    console.log(JSON.stringify({ file: args.file, verdict, ok, problems, checked }, null, 2));
    return;
  }
  for (const line of result.checked) console.log(`checked: ${line}`);
  console.log(headline(args.file, result, args.keyFile !== undefined));
  for (const problem of result.problems) console.log(`  - ${problem}`);
}

async function main(): Promise<number> {
  const args = parse();
  if (typeof args === "string") {
    console.error(args);
    return 2;
  }
  let zip: Uint8Array;
  let trustedKey: JWK | undefined;
  try {
    zip = readFileSync(args.file);
    if (args.keyFile) trustedKey = JSON.parse(readFileSync(args.keyFile, "utf8")) as JWK;
  } catch (error) {
    console.error(`verify-evidence: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  let result: VerdictResult;
  try {
    result = await verifyEvidenceVerdict(zip, { trustedKey });
  } catch (error) {
    // Past a bound (entry count, sizes): refused unread, as the console's upload check refuses it.
    if (!(error instanceof ApiError)) throw error;
    result = { ok: false, verdict: "not_intact", problems: [error.message], checked: [] };
  }
  report(args, result);
  return EXIT_CODES[result.verdict];
}

void main().then((code) => {
  process.exitCode = code;
});
