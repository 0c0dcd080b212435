/**
 * The two CLIs as a CI runs them: spawned, with their exit codes. Against the embedded sandbox in-process,
 * and against a sandbox served over HTTP on 127.0.0.1 (the real-upstream path) that answers 200 instead of
 * 201 to Gift Balance Inquiry.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { strToU8, unzipSync, zipSync } from "fflate";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { declaredHugeZip, entriesOf, writeZip, zipBomb } from "../../support/hostile-zips";

const work = mkdtempSync(path.join(tmpdir(), "certify-cli-"));

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(script: string, args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    // As the package.json scripts run them.
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", `scripts/${script}.ts`, ...args],
      {
        env: {
          NODE_ENV: "production",
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? work,
          DATA_DIR: path.join(work, "data"),
          ...env,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function bundleIn(dir: string): string {
  const [file] = readdirSync(dir).filter((name) => name.endsWith(".zip"));
  if (!file) throw new Error(`no bundle in ${dir}`);
  return path.join(dir, file);
}

describe("npm run certify / verify-evidence", () => {
  let upstream: SandboxServer;

  beforeAll(async () => {
    const sandbox = createSandbox();
    upstream = await startSandboxServer({
      port: 0,
      sandbox: {
        ...sandbox,
        handle: async (request) => {
          const response = await sandbox.handle(request);
          return response.status === 201
            ? new Response(response.body, { status: 200, headers: response.headers })
            : response;
        },
      },
    });
  });
  afterAll(() => upstream?.close());

  it("certifies the embedded sandbox: a line per case, a summary, exit 0, and a bundle that verifies", async () => {
    const out = path.join(work, "embedded");
    const result = await run("certify", [
      "--env",
      "embedded",
      "--out",
      out,
      "--cases",
      "TOK-01,GBI-01,BI-01,TOK-09",
    ]);
    expect(result.stderr).toContain("generated an Ed25519 evidence signing key");
    expect(result.code).toBe(0);
    for (const id of ["TOK-01", "GBI-01", "BI-01", "TOK-09"])
      expect(result.stdout).toMatch(new RegExp(`\\] ${id}\\s+pass`));
    expect(result.stdout).toContain("4 cases in");
    const bundle = bundleIn(out);
    const verified = await run("verify-evidence", [bundle]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain("intact");

    const files = unzipSync(readFileSync(bundle));
    const tampered = path.join(work, "tampered.zip");
    writeFileSync(tampered, zipSync({ ...files, "results.csv": strToU8("case_id\r\nTOK-01\r\n") }));
    const broken = await run("verify-evidence", [tampered]);
    expect(broken.code).toBe(1);
    // One stream: what was checked and what is wrong, in order, on stdout.
    expect(broken.stdout).toContain("NOT intact");
    expect(broken.stdout).toContain("results.csv was changed");
    expect(broken.stderr).toBe("");
    const json = await run("verify-evidence", [tampered, "--json"]);
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout) as { verdict: string; problems: string[] };
    expect(parsed.verdict).toBe("not_intact");
    expect(parsed.problems.join("\n")).toContain("results.csv was changed");
  });

  it("records what served the run: the in-process sandbox, not an address nothing listened on", async () => {
    const out = path.join(work, "served");
    const result = await run("certify", ["--env", "embedded", "--out", out, "--cases", "TOK-01"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Certifying embedded (in-process embedded sandbox)");
    const manifest = JSON.parse(
      Buffer.from(unzipSync(readFileSync(bundleIn(out)))["manifest.json"]!).toString(),
    ) as {
      environment: { served_by?: string };
    };
    expect(manifest.environment.served_by).toBe("in-process embedded sandbox");
  });

  it("tells a wrong signer from tampering: exit 3 'intact, but signed by another key', exit 1 when changed", async () => {
    const out = path.join(work, "signer");
    expect((await run("certify", ["--env", "embedded", "--out", out, "--cases", "TOK-01"])).code).toBe(0);
    const bundle = bundleIn(out);
    const files = unzipSync(readFileSync(bundle));
    const ownKey = path.join(work, "own-key.jwk");
    writeFileSync(ownKey, files["public-key.jwk"]!);
    const { publicKey } = await generateKeyPair("EdDSA", { crv: "Ed25519" });
    const otherKey = path.join(work, "other-key.jwk");
    writeFileSync(otherKey, JSON.stringify(await exportJWK(publicKey)));

    const own = await run("verify-evidence", [bundle, "--key", ownKey]);
    expect(own.code).toBe(0);
    expect(own.stdout).toContain(": intact.");
    const other = await run("verify-evidence", [bundle, "--key", otherKey]);
    expect(other.code).toBe(3);
    expect(other.stdout).toContain("intact, but signed by another key");
    expect(other.stdout).not.toContain("NOT intact");
    const otherJson = JSON.parse(
      (await run("verify-evidence", [bundle, "--key", otherKey, "--json"])).stdout,
    ) as {
      verdict: string;
    };
    expect(otherJson.verdict).toBe("other_signer");

    const tampered = path.join(work, "signer-tampered.zip");
    writeFileSync(tampered, zipSync({ ...files, "results.csv": strToU8("case_id\r\n") }));
    const changed = await run("verify-evidence", [tampered, "--key", otherKey]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain("NOT intact");
  });

  it("verify-evidence reads within the same bounds and by own names, refusing hostile zips with exit 1", async () => {
    const refused = [declaredHugeZip(300), zipBomb({ mib: 65 })];
    for (const [index, zip] of refused.entries()) {
      const file = path.join(work, `hostile-${index}.zip`);
      writeFileSync(file, zip);
      const result = await run("verify-evidence", [file]);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain("refused unread past a bound");
    }
    // An entry that lies about its size is read only up to the size it declares: not intact.
    const lying = path.join(work, "hostile-lying.zip");
    writeFileSync(lying, zipBomb({ mib: 40, lie: true }));
    const lied = await run("verify-evidence", [lying]);
    expect(lied.code).toBe(1);
    expect(lied.stdout).toContain("NOT intact");
    expect(lied.stdout).toContain("inflates past the 1024 bytes it declares");
    const out = path.join(work, "named");
    expect((await run("certify", ["--env", "embedded", "--out", out, "--cases", "TOK-01"])).code).toBe(0);
    const entries = entriesOf(readFileSync(bundleIn(out)));
    const added = path.join(work, "proto.zip");
    writeFileSync(added, writeZip([...entries, { name: "__proto__", bytes: strToU8("{}") }]));
    const proto = await run("verify-evidence", [added]);
    expect(proto.code).toBe(1);
    expect(proto.stdout).toContain("__proto__ is not listed in the manifest");
    const twice = path.join(work, "twice.zip");
    writeFileSync(twice, writeZip([...entries, { name: "results.csv", bytes: strToU8("case_id\r\n") }]));
    const duplicate = await run("verify-evidence", [twice]);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stdout).toContain("results.csv appears more than once");
  });

  it("exits 1 when a case fails against an upstream over HTTP, naming what differed", async () => {
    const profile = path.join(work, "profile.json");
    writeFileSync(
      profile,
      JSON.stringify({
        primary: { client_id: "demo-client", client_secret_env: "CERT_PRIMARY_SECRET" },
        cards: { active: "6006491000000001", declined: "6006491000000027" },
        transaction_lookup: true,
      }),
    );
    const out = path.join(work, "http");
    const result = await run(
      "certify",
      ["--env", "sandbox", "--out", out, "--profile", profile, "--cases", "GBI-01,GBI-02,BI-01"],
      {
        EMBEDDED_SANDBOX: "off",
        CARD_API_AUTH_URL: upstream.url,
        CARD_API_SANDBOX_URL: upstream.url,
        CERT_PRIMARY_SECRET: "demo-secret",
      },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/GBI-01\s+FAIL .*HTTP status: expected HTTP 201, observed HTTP 200/);
    expect(result.stdout).toMatch(/GBI-02\s+pass/);
    expect(result.stdout).toMatch(/BI-01\s+pass/);
    const junit = unzipSync(readFileSync(bundleIn(out)))["junit.xml"]!;
    expect(Buffer.from(junit).toString()).toContain(
      '<failure message="HTTP status: expected HTTP 201, observed HTTP 200"',
    );
  });

  it("exits 2 on a usage or configuration error, saying which", async () => {
    const unknownEnv = await run("certify", ["--env", "staging"]);
    expect(unknownEnv.code).toBe(2);
    expect(unknownEnv.stderr).toContain("--env must be one of");
    const unknownCase = await run("certify", ["--env", "embedded", "--cases", "XYZ-99"]);
    expect(unknownCase.code).toBe(2);
    expect(unknownCase.stderr).toContain("Unknown case id(s): XYZ-99");
    const notConfigured = await run("certify", ["--env", "production"]);
    expect(notConfigured.code).toBe(2);
    expect(notConfigured.stderr).toContain("Environment production is not configured");
    const badConfig = await run("certify", ["--env", "embedded"], { CARD_API_TIMEOUT_MS: "fast" });
    expect(badConfig.code).toBe(2);
    expect(badConfig.stderr).toContain("CARD_API_TIMEOUT_MS");
    const noCards = await run("certify", ["--env", "sandbox"], {
      CARD_API_AUTH_URL: upstream.url,
      CARD_API_SANDBOX_URL: upstream.url,
    });
    expect(noCards.code).toBe(2);
    expect(noCards.stderr).toContain("No test cards for sandbox");
    const noFile = await run("verify-evidence", []);
    expect(noFile.code).toBe(2);
  });
});
