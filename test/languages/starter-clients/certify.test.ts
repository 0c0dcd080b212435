/**
 * The starter clients of docs/design.md §12, proved as an integrator would use them: each zip is downloaded from a
 * running console, unzipped, and driven through its command line (the contract of starter-clients/README.md)
 * through a docs/design.md §11 certification; all eight checks pass and the evidence verifies. A copy of the Node client with
 * its token cache taken out fails CLI-TOKEN-REUSE, so the proof can fail.
 *
 * STARTER_LANGUAGES=node,python limits the languages. Without it every catalogue language is proved: one whose
 * folder the console does not serve fails; one whose runtime this machine lacks is skipped, saying so.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { verifyEvidence } from "@/lib/server/certification/evidence/verify";
import {
  ACTIVE_CARD,
  INACTIVE_CARD,
  type ClientCertificationView,
  type ClientStepId,
  type StartedClientCertification,
} from "@/lib/shared/client-certification-contract";
import { STARTER_CLIENTS, type StarterClient } from "@/lib/server/starter-clients/catalogue";
import { freePort, startConsole, type ConsoleServer } from "../../support/console-server";
import { CertificationDriver, expectAllPass } from "@/test/support/client-certification";
import { builtGoProgram } from "@/test/support/go-build";
import { compiledJava, SHORT_RUN_JVM_FLAGS } from "@/test/support/jvm";

const CLI_TIMEOUT_MS = 120_000;

/** Whether this machine can run the language's client: null when it can, else why not. */
function missingRuntime(language: string): string | null {
  const probe = (command: string, args: string[]) => spawnSync(command, args, { encoding: "utf8" });
  if (language === "node") return null;
  if (language === "python") return probe("python3", ["--version"]).status === 0 ? null : "no python3";
  if (language === "go") return probe("go", ["version"]).status === 0 ? null : "no go";
  if (language === "java") {
    const version = probe("java", ["-version"]);
    if (version.status !== 0) return "no java";
    const major = Number(/version "(\d+)/.exec(version.stderr)?.[1] ?? 0);
    return major >= 17 ? null : `java ${major} (17+ needed)`;
  }
  return `no runtime known for ${language}`;
}

const wanted = process.env.STARTER_LANGUAGES?.split(",").map((language) => language.trim());
const LANGUAGES = STARTER_CLIENTS.filter((client) => !wanted || wanted.includes(client.language));

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed: the contract's one JSON object. */
  output: Record<string, unknown>;
}

/** The same source compiled once (`java File.java` and `go run .` compile it again on every command). */
function compiled(client: StarterClient, dir: string): string[] | undefined {
  if (client.language === "java") {
    const classes = compiledJava(path.join(dir, "CardApiClient.java"));
    return classes === undefined
      ? undefined
      : ["java", ...SHORT_RUN_JVM_FLAGS, "-cp", classes, "CardApiClient"];
  }
  if (client.language === "go") {
    const binary = builtGoProgram(dir);
    return binary === undefined ? undefined : [binary];
  }
  return undefined;
}

/** The compiled command of each folder whose first command ran as its README says. */
const compiledCommands = new Map<string, string[]>();

/**
 * The client's command in its folder: the first one exactly as its catalogue `run` says ("node client.mjs
 * <command>", "java CardApiClient.java <command>"), the next ones the same program compiled once.
 */
function commandOf(client: StarterClient, dir: string): string[] {
  const known = compiledCommands.get(dir);
  if (known) return known;
  const [program = "", ...fixed] = client.run.replace(" <command>", "").split(" ");
  const command = program === "node" ? process.execPath : program;
  const flags = program === "java" ? SHORT_RUN_JVM_FLAGS : [];
  const asWritten = [command, ...flags, ...fixed];
  compiledCommands.set(dir, compiled(client, dir) ?? asWritten);
  return asWritten;
}

/** One command of the client, run in its folder. */
function runClient(
  client: StarterClient,
  dir: string,
  env: Record<string, string>,
  args: string[],
): Promise<CliResult> {
  const [program = "", ...fixed] = commandOf(client, dir);
  return new Promise((resolve, reject) => {
    const child = spawn(program, [...fixed, ...args], {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: CLI_TIMEOUT_MS,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      let output: Record<string, unknown> = {};
      try {
        output = JSON.parse(stdout) as Record<string, unknown>;
      } catch {
        // Left empty: the caller's assertions on the output say what was printed instead.
      }
      resolve({ code, stdout, stderr, output });
    });
  });
}

let server: ConsoleServer;
const workDirs: string[] = [];

// A console of its own: the certifications it leaves are listed on the certification page of any other file.
beforeAll(async () => {
  server = await startConsole();
});
afterAll(async () => {
  await server?.stop();
  for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
});

async function downloadClient(language: string): Promise<string> {
  const response = await fetch(`${server.url}/api/starter-clients/${language}.zip`);
  expect(response.status, `${language}.zip: ${response.status}`).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/zip");
  const dir = mkdtempSync(path.join(os.tmpdir(), `starter-${language}-`));
  workDirs.push(dir);
  const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
  const top = `card-api-client-${language}/`;
  for (const [name, bytes] of Object.entries(files)) {
    expect(name.startsWith(top), name).toBe(true);
    const target = path.join(dir, name.slice(top.length));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, bytes);
  }
  for (const needed of ["README.md", ".env.example"])
    expect(Object.keys(files), needed).toContain(`${top}${needed}`);
  return dir;
}

interface Certified {
  view: ClientCertificationView;
  started: StartedClientCertification;
  outputs: CliResult[];
  seconds: number;
}

/** A docs/design.md §11 certification with the client's command line doing what each step asks. */
async function certify(client: StarterClient, dir: string): Promise<Certified> {
  const certification = new CertificationDriver(server.url);
  const begun = Date.now();
  const started = await certification.start();
  const env = {
    CARD_API_AUTH_URL: started.auth_url,
    CARD_API_BASE_URL: started.base_url,
    CARD_API_CLIENT_ID: started.client_id,
    CARD_API_CLIENT_SECRET: started.client_secret,
    CARD_API_TIMEOUT_MS: "10000",
  };
  const outputs: CliResult[] = [];
  const run = async (args: string[], extra: Record<string, string> = {}) => {
    const result = await runClient(client, dir, { ...env, ...extra }, args);
    outputs.push(result);
    expect(result.code, `${args.join(" ")}: ${result.stderr}${result.stdout}`).toBe(0);
    return result.output;
  };
  const arm = (step: ClientStepId) => certification.arm(started.id, step);

  await arm("tokens");
  expect(await run(["token"])).toMatchObject({ token_type: "Bearer", scope: "read:transactions" });
  expect(statSync(path.join(dir, ".card-api-token.json")).mode & 0o777).toBe(0o600);
  for (let call = 0; call < 3; call += 1)
    expect(await run(["gift", ACTIVE_CARD])).toMatchObject({ status: 201 });
  await arm("declined");
  const declined = await run(["gift", INACTIVE_CARD]);
  expect(declined).toMatchObject({ status: 201, body: { data: { response_status: "declined" } } });
  await arm("revoked");
  expect(await run(["gift", ACTIVE_CARD])).toMatchObject({ status: 201 });
  await arm("timeout");
  const timedOut = await run(["gift", ACTIVE_CARD], { CARD_API_TIMEOUT_MS: "2000" });
  expect(timedOut).toMatchObject({ status: null, timed_out: true, lookup: { status: 200 } });
  await arm("rate_limited");
  for (let call = 0; call < 2; call += 1)
    expect(await run(["balance", ACTIVE_CARD])).toMatchObject({ status: 200 });

  const view = await certification.finish(started.id);
  return { view, started, outputs, seconds: (Date.now() - begun) / 1000 };
}

describe.each(LANGUAGES)("the $language starter client", (client) => {
  const why = missingRuntime(client.language);
  test("is served by the console as a zip with its README and .env.example (part of the product)", async () => {
    const dir = await downloadClient(client.language);
    const example = readFileSync(path.join(dir, ".env.example"), "utf8");
    for (const variable of [
      "CARD_API_AUTH_URL",
      "CARD_API_BASE_URL",
      "CARD_API_CLIENT_ID",
      "CARD_API_CLIENT_SECRET",
      "CARD_API_TIMEOUT_MS",
      "CARD_API_TOKEN_CACHE",
    ])
      expect(example, variable).toMatch(new RegExp(`^${variable}=`, "m"));
  });
  test.skipIf(why !== null)(
    `downloaded from the console, it passes all eight checks through its command line${why ? ` (skipped: ${why})` : ""}`,
    async () => {
      const dir = await downloadClient(client.language);
      const { view, started, outputs, seconds } = await certify(client, dir);
      console.log(`[starter-clients] ${client.language}: certification took ${seconds.toFixed(1)} s`);
      expectAllPass(view);
      // Neither the secret nor the token in anything the client printed.
      const token = (
        JSON.parse(readFileSync(path.join(dir, ".card-api-token.json"), "utf8")) as { access_token: string }
      ).access_token;
      for (const { stdout, stderr } of outputs) {
        for (const secret of [started.client_secret, token]) expect(stdout + stderr).not.toContain(secret);
      }
      // Exit 1 with the reason on stderr, never a stack trace: configuration missing, nobody answering, a
      // token cache that cannot be written.
      // A port that was free a moment ago: on a shared machine even port 9 may have a listener.
      const unreachable = `http://127.0.0.1:${await freePort()}`;
      const sandbox = `${server.url}/sandbox`;
      const failures: Record<string, string>[] = [
        { CARD_API_AUTH_URL: sandbox, CARD_API_BASE_URL: sandbox, CARD_API_CLIENT_SECRET: "" },
        {
          CARD_API_AUTH_URL: unreachable,
          CARD_API_BASE_URL: unreachable,
          CARD_API_TOKEN_CACHE: "other.json",
        },
        // A token it got but cannot keep (the sandbox's demo client; the certification's is revoked by now).
        {
          CARD_API_AUTH_URL: sandbox,
          CARD_API_BASE_URL: sandbox,
          CARD_API_CLIENT_ID: "demo-client",
          CARD_API_CLIENT_SECRET: "demo-secret",
          CARD_API_TOKEN_CACHE: path.join(dir, "no-such-folder", "token.json"),
        },
      ];
      for (const env of failures) {
        const failed = await runClient(
          client,
          dir,
          { CARD_API_CLIENT_ID: "cert-x", CARD_API_CLIENT_SECRET: "x", ...env },
          ["balance", ACTIVE_CARD],
        );
        expect({ code: failed.code, stdout: failed.stdout }).toEqual({ code: 1, stdout: "" });
        expect(failed.stderr).toMatch(/^error: \S/);
        // `go run` adds its own "exit status 1" line; a stack trace is what must never appear.
        expect(failed.stderr).not.toMatch(/\n\s+at |Traceback|Exception in thread|^panic:|goroutine \d/m);
      }
      const { zip } = await new CertificationDriver(server.url).evidence(started.id);
      const verified = await verifyEvidence(zip);
      expect(verified.problems).toEqual([]);
      expect(verified.ok).toBe(true);
    },
    // A dozen commands of a JVM or Go program each: minutes on a busy box.
    420_000,
  );
});

describe("the proof can fail", () => {
  test("the Node client with its token cache taken out (a token per call) fails CLI-TOKEN-REUSE", async () => {
    const node = STARTER_CLIENTS.find((client) => client.language === "node")!;
    const dir = await downloadClient("node");
    const file = path.join(dir, "client.mjs");
    const source = readFileSync(file, "utf8");
    const broken = source.replace(
      /async getToken\(\) \{/,
      "async getToken() {\n    return this.requestToken();",
    );
    expect(broken).not.toBe(source);
    writeFileSync(file, broken);
    const { view } = await certify(node, dir);
    expect(view.checks.find((check) => check.id === "CLI-TOKEN-REUSE")).toMatchObject({ verdict: "fail" });
  }, 240_000);
});

describe("the zips", () => {
  test("an unknown language or a name not ending .zip is 404 not_found in the one error shape", async () => {
    for (const name of ["cobol.zip", "node.tar", "..%2Fpackage.json"]) {
      const response = await fetch(`${server.url}/api/starter-clients/${name}`);
      expect(response.status, name).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: "not_found" } });
    }
  });
});
