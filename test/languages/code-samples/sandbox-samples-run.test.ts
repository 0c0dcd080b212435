/**
 * The sandbox document's `x-codeSamples`, run as copied in every language whose runtime this machine has, against
 * a console listening on 127.0.0.1 whose public origin (PUBLIC_URL) is http://localhost:<port>: the samples must
 * name the public origin and work there. Token, Balance Inquiry, Gift Balance Inquiry twice (a fresh Request Id
 * each run, so both are 201) and the lookup.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATION_SPECS } from "@/lib/shared/operations";
import { freePort, startConsole, type ConsoleServer } from "@/test/support/console-server";

const run = promisify(execFile);

interface Runtime {
  /** The command that must exist. */
  tool: string;
  /** The file the sample is saved as. */
  file: string;
  command: (file: string) => [string, string[]];
}

const RUNTIMES: Record<string, Runtime> = {
  shell: { tool: "curl", file: "request.sh", command: (file) => ["bash", [file]] },
  javascript: { tool: "node", file: "request.mjs", command: (file) => [process.execPath, [file]] },
  node: { tool: "node", file: "request.mjs", command: (file) => [process.execPath, [file]] },
  python: { tool: "python3", file: "request.py", command: (file) => ["python3", [file]] },
  java: { tool: "java", file: "Main.java", command: (file) => ["java", [file]] },
  go: { tool: "go", file: "main.go", command: (file) => ["go", ["run", file]] },
  php: { tool: "php", file: "request.php", command: (file) => ["php", [file]] },
  ruby: { tool: "ruby", file: "request.rb", command: (file) => ["ruby", [file]] },
};

function missingTool(tool: string): boolean {
  if (tool === "node") return false;
  try {
    execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
    return false;
  } catch {
    return true;
  }
}

type Samples = Record<string, Record<string, string>>;

/** The status the sample printed: curl's status line, or the first line of the others. */
function printedStatus(stdout: string): number {
  const match = /^(?:HTTP\/[\d.]+ )?(\d{3})\b/m.exec(stdout);
  if (!match) throw new Error(`no status in the output:\n${stdout}`);
  return Number(match[1]);
}

describe("x-codeSamples run as copied against a console with PUBLIC_URL", () => {
  let server: ConsoleServer;
  let origin: string;
  let samples: Samples;
  const folders: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    server = await startConsole({ PORT: String(port), HOSTNAME: "127.0.0.1", PUBLIC_URL: origin });
    const document = (await (await fetch(`${server.url}/sandbox/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { "x-codeSamples": Array<{ lang: string; source: string }> }>>;
    };
    samples = {};
    for (const [operation, spec] of Object.entries(OPERATION_SPECS)) {
      const item = Object.values(document.paths[spec.path]!)[0]!;
      samples[operation] = Object.fromEntries(
        item["x-codeSamples"].map(({ lang, source }) => [lang, source]),
      );
    }
  });
  afterAll(async () => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    await server?.stop();
  });

  async function runSample(language: string, source: string, env: Record<string, string>) {
    const runtime = RUNTIMES[language]!;
    const folder = mkdtempSync(path.join(os.tmpdir(), `sample-${language}-`));
    folders.push(folder);
    const file = path.join(folder, runtime.file);
    writeFileSync(file, source);
    const [command, args] = runtime.command(file);
    const { stdout } = await run(command, args, {
      cwd: folder,
      env: { ...process.env, ...env },
      timeout: 120_000,
    });
    return stdout;
  }

  for (const [language, runtime] of Object.entries(RUNTIMES)) {
    const missing = missingTool(runtime.tool);
    const name = missing
      ? `${language}: skipped, \`${runtime.tool}\` is not installed on this machine`
      : `${language}: token 200, balance 200, gift 201 twice, lookup 200`;
    it.skipIf(missing)(
      name,
      async () => {
        const sample = (operation: string) => samples[operation]![language]!;
        // Python names the host and the path apart.
        for (const operation of Object.keys(samples)) {
          expect(sample(operation)).toContain(new URL(origin).host);
          expect(sample(operation)).not.toContain("127.0.0.1");
        }

        const credentials = { CLIENT_ID: "demo-client", CLIENT_SECRET: "demo-secret" };
        const tokenOutput = await runSample(language, sample("token"), credentials);
        expect(printedStatus(tokenOutput)).toBe(200);
        const accessToken = /"access_token"\s*:\s*"([^"]+)"/.exec(tokenOutput)?.[1];
        expect(accessToken).toBeDefined();
        const env = { ACCESS_TOKEN: accessToken! };

        expect(printedStatus(await runSample(language, sample("balance_inquiry"), env))).toBe(200);
        const gifts = [
          await runSample(language, sample("gift_balance_inquiry"), env),
          await runSample(language, sample("gift_balance_inquiry"), env),
        ];
        expect(gifts.map(printedStatus)).toEqual([201, 201]);
        expect(printedStatus(await runSample(language, sample("transaction_lookup"), env))).toBe(200);
      },
      600_000,
    );
  }
});
