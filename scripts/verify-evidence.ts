/**
 * npm run verify-evidence -- <bundle.zip> [--key public-key.jwk]
 * Exit 0 when every hash and the signature check out; 1 with what is wrong (or when the zip is past the
 * reader's bounds: too many entries, or files that inflate too large); 2 on a usage error.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { JWK } from "jose";
import { verifyEvidence } from "@/lib/server/certification/evidence/verify";
import { ApiError } from "@/lib/server/errors";

const USAGE = "Usage: npm run verify-evidence -- <bundle.zip> [--key trusted-public-key.jwk]";

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ options: { key: { type: "string" } }, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`verify-evidence: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const [file, ...extra] = parsed.positionals;
  if (!file || extra.length > 0) {
    console.error(USAGE);
    return 2;
  }
  let zip: Uint8Array;
  let trustedKey: JWK | undefined;
  try {
    zip = readFileSync(file);
    if (parsed.values.key) trustedKey = JSON.parse(readFileSync(parsed.values.key, "utf8")) as JWK;
  } catch (error) {
    console.error(`verify-evidence: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  let result;
  try {
    result = await verifyEvidence(zip, { trustedKey });
  } catch (error) {
    // Past a bound (entry count, sizes): refused unread, as the console's upload check refuses it.
    if (!(error instanceof ApiError)) throw error;
    console.error(`${file}: NOT intact\n  - ${error.message}`);
    return 1;
  }
  for (const line of result.checked) console.log(`checked: ${line}`);
  if (result.ok) {
    console.log(
      `${file}: intact.${trustedKey ? "" : " (Signed by the key inside the bundle; pass --key to check who signed.)"}`,
    );
    return 0;
  }
  console.error(`${file}: NOT intact`);
  for (const problem of result.problems) console.error(`  - ${problem}`);
  return 1;
}

void main().then((code) => {
  process.exitCode = code;
});
