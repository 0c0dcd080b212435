/**
 * Generated code treats every value from a run as data (docs/design.md §12), proven the way an attacker would
 * try it: fast-check makes exchange records (token request, Balance Inquiry, Gift Balance Inquiry, lookup,
 * free-form run) whose every field holds hostile text — quotes of every kind, backslashes, `#{}`, `${}`, `$()`,
 * backticks, `\u` escapes, CR/LF where the field allows them, 10 KB strings, the old stand-in names — and each
 * is written by the Code panel's generator, run in every language with a runtime here, against an echoing
 * server on 127.0.0.1. The bytes that arrive must be the values given (method, path, headers, body, with what
 * the program reads from the environment in its place) and nothing else may run: the payloads try to create a
 * file, which must never appear.
 *
 * Java and Go cases are compiled once per language (one program holding every case); the interpreted languages
 * run one process per case. C# and PowerShell have no runtime here: test/unit/shared/code-samples.test.ts reads
 * their literals back with a strict lexer.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exchangeToCode } from "@/lib/client/code-export";
import type { CodeLanguage } from "@/lib/shared/code-languages";
import { SHORT_RUN_JVM_FLAGS } from "@/test/support/jvm";
import { ENV, MARKER, hostileCases, type HostileCase } from "@/test/support/hostile-cases";

const run = promisify(execFile);

interface Arrival {
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body: string;
}

/** Records every request by its case (the path's first segment); answers a token to `/case-N/token`. */
function echoServer() {
  const arrivals = new Map<string, Arrival[]>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = request.url ?? "";
      const key = url.split("/")[1] ?? "";
      const headers: Array<[string, string]> = [];
      for (let index = 0; index < request.rawHeaders.length; index += 2)
        headers.push([request.rawHeaders[index]!.toLowerCase(), request.rawHeaders[index + 1]!]);
      const list = arrivals.get(key) ?? [];
      list.push({
        method: request.method ?? "",
        path: url,
        headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      arrivals.set(key, list);
      const token = url.endsWith("/token");
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify(token ? { data: { attributes: { access_token: ENV.PRELUDE_TOKEN } } } : { ok: true }),
      );
    });
  });
  return { server, arrivals };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** What must have arrived for a case: its request (after its token request, when it makes one). */
function checkArrivals(testCase: HostileCase, arrived: Arrival[] | undefined, prelude: boolean): void {
  const label = `case ${testCase.id} (${testCase.kind}): ${JSON.stringify(testCase.exchange.request).slice(0, 300)}`;
  expect(arrived?.length, label).toBe(prelude ? 2 : 1);
  const request = arrived!.at(-1)!;
  expect(request.method, label).toBe(testCase.expected.method);
  expect(request.path, label).toBe(testCase.expected.path);
  expect(request.body, label).toBe(testCase.expected.body);
  const header = (name: string) => request.headers.filter(([key]) => key === name).map(([, value]) => value);
  for (const [name, value] of testCase.expected.headers)
    expect(header(name), `${label}: ${name}`).toEqual([value]);
  const authorization = prelude ? `Bearer ${ENV.PRELUDE_TOKEN}` : `Bearer ${ENV.ACCESS_TOKEN}`;
  if (testCase.kind !== "token") expect(header("authorization"), label).toEqual([authorization]);
  if (testCase.kind === "gift") {
    expect(header("x-request-id")[0], label).toMatch(UUID);
    expect(header("x-request-id")[0], label).not.toBe(testCase.recordedRequestId);
  }
  if (prelude) {
    const token = arrived![0]!;
    expect(JSON.parse(token.body), label).toEqual({
      client_id: ENV.CLIENT_ID,
      client_secret: ENV.CLIENT_SECRET,
      grant_type: "client_credentials",
    });
  }
}

interface Language {
  file: string;
  /** Runs every case's program (in `folder/<case>/<file>`); each printed its status on a line of its own. */
  runAll: (folder: string, ids: string[]) => Promise<void>;
}

const env = { ...process.env, ...ENV };
const exec = (command: string, args: string[], cwd: string) =>
  run(command, args, { cwd, env, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });

function perCase(file: string, command: (file: string) => [string, string[]]): Language {
  return {
    file,
    runAll: async (folder, ids) => {
      for (const id of ids) {
        const [bin, args] = command(file);
        const { stdout } = await exec(bin, args, path.join(folder, id));
        expect(stdout, `case ${id}`).toMatch(/^(HTTP\/[\d.]+ )?200\b/m);
      }
    },
  };
}

/** Java: every case's Main in a package of its own, compiled by one javac and run by one JVM. */
const javaBatch: Language = {
  file: "Main.java",
  runAll: async (folder, ids) => {
    const sources = ids.map((id) => path.join(id, "Main.java"));
    for (const source of sources) {
      const file = path.join(folder, source);
      const { readFileSync } = await import("node:fs");
      writeFileSync(file, `package ${path.dirname(source)};\n${readFileSync(file, "utf8")}`);
    }
    const driver = [
      "public class Driver {",
      "  public static void main(String[] args) throws Exception {",
      ...ids.map((id) => `    ${id}.Main.main(args);`),
      "  }",
      "}",
    ].join("\n");
    writeFileSync(path.join(folder, "Driver.java"), driver);
    await exec("javac", ["-J-XX:TieredStopAtLevel=1", "-d", "classes", "Driver.java", ...sources], folder);
    const { stdout } = await exec("java", [...SHORT_RUN_JVM_FLAGS, "-cp", "classes", "Driver"], folder);
    expect(stdout.match(/^200$/gm)?.length).toBe(ids.length);
  },
};

/** Go: every case's program a package of its own in one module, built by one `go run`. */
const goBatch: Language = {
  file: "main.go",
  runAll: async (folder, ids) => {
    const { readFileSync } = await import("node:fs");
    for (const id of ids) {
      const file = path.join(folder, id, "main.go");
      const code = readFileSync(file, "utf8");
      expect(code.match(/^package main$/m)).toHaveLength(1);
      expect(code.match(/^func main\(\) \{$/m)).toHaveLength(1);
      writeFileSync(
        file,
        code.replace(/^package main$/m, `package ${id}`).replace(/^func main\(\) \{$/m, "func Main() {"),
      );
    }
    writeFileSync(path.join(folder, "go.mod"), "module cases\n\ngo 1.19\n");
    mkdirSync(path.join(folder, "driver"));
    writeFileSync(
      path.join(folder, "driver", "main.go"),
      [
        "package main",
        "",
        "import (",
        ...ids.map((id) => `\t"cases/${id}"`),
        ")",
        "",
        "func main() {",
        ...ids.map((id) => `\t${id}.Main()`),
        "}",
      ].join("\n"),
    );
    const { stdout } = await exec("go", ["run", "./driver"], folder);
    expect(stdout.match(/^200$/gm)?.length).toBe(ids.length);
  },
};

const LANGUAGES: Partial<Record<CodeLanguage, Language>> = {
  shell: perCase("request.sh", (file) => ["sh", [file]]),
  javascript: perCase("request.mjs", (file) => [process.execPath, [file]]),
  node: perCase("request.mjs", (file) => [process.execPath, [file]]),
  python: perCase("request.py", (file) => ["python3", [file]]),
  php: perCase("request.php", (file) => ["php", [file]]),
  ruby: perCase("request.rb", (file) => ["ruby", [file]]),
  java: javaBatch,
  go: goBatch,
};

/** One program run as its reader would: `java Main.java`, `go run main.go`, the interpreters as above. */
const SINGLE_RUN: Record<string, (file: string) => [string, string[]]> = {
  shell: (file) => ["sh", [file]],
  javascript: (file) => [process.execPath, [file]],
  node: (file) => [process.execPath, [file]],
  python: (file) => ["python3", [file]],
  php: (file) => ["php", [file]],
  ruby: (file) => ["ruby", [file]],
  java: (file) => ["java", [...SHORT_RUN_JVM_FLAGS, file]],
  go: (file) => ["go", ["run", file]],
};

async function installed(command: string): Promise<boolean> {
  try {
    await run("sh", ["-c", `command -v ${command}`]);
    return true;
  } catch {
    return false;
  }
}

describe("generated code sends hostile values as data, in every language with a runtime", () => {
  let base: string;
  let echo: ReturnType<typeof echoServer>;
  let root: string;
  const timings: string[] = [];

  beforeAll(async () => {
    echo = echoServer();
    await new Promise<void>((resolve) => echo.server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(echo.server.address() as AddressInfo).port}`;
    root = mkdtempSync(path.join(os.tmpdir(), "hostile-code-"));
  });
  afterAll(async () => {
    await new Promise((resolve) => echo?.server.close(resolve));
    if (root) rmSync(root, { recursive: true, force: true });
    if (timings.length > 0) console.log(`code samples, hostile values:\n${timings.join("\n")}`);
  });

  for (const [language, runtime] of Object.entries(LANGUAGES) as Array<[CodeLanguage, Language]>) {
    const tool = { shell: "curl", javascript: "node", node: "node" }[language as string] ?? language;
    const command = tool === "python" ? "python3" : tool;
    it(`${language}: every field's hostile value arrives as given, and nothing else runs`, async (context) => {
      if (!(await installed(command))) return context.skip(`\`${command}\` is not installed on this machine`);
      const cases = hostileCases(base, language);
      const folder = path.join(root, language);
      for (const testCase of cases) {
        mkdirSync(path.join(folder, testCase.id), { recursive: true });
        const code = exchangeToCode(testCase.exchange, language, testCase.options);
        writeFileSync(path.join(folder, testCase.id, runtime.file), code);
      }
      const started = performance.now();
      await runtime.runAll(
        folder,
        cases.map((testCase) => testCase.id),
      );
      const seconds = (performance.now() - started) / 1000;
      timings.push(`  ${language}: ${cases.length} cases in ${seconds.toFixed(1)} s`);
      for (const testCase of cases) {
        const prelude = Boolean(testCase.options.token) && ["shell", "javascript", "node"].includes(language);
        checkArrivals(testCase, echo.arrivals.get(`${language}-${testCase.id}`), prelude);
      }
      const marker = readdirSync(folder, { recursive: true }).filter((name) => String(name).endsWith(MARKER));
      expect(marker).toEqual([]);
      expect(existsSync(path.join(os.tmpdir(), MARKER))).toBe(false);

      // An empty variable stops the program, naming it, before anything is sent.
      const gift = cases.find((testCase) => testCase.kind === "gift")!;
      const emptyFolder = path.join(root, `${language}-empty`);
      mkdirSync(emptyFolder);
      writeFileSync(path.join(emptyFolder, runtime.file), exchangeToCode(gift.exchange, language));
      const before = echo.arrivals.get(`${language}-${gift.id}`)?.length;
      const [bin, args] = SINGLE_RUN[language]!(runtime.file);
      const failed = await run(bin, args, {
        cwd: emptyFolder,
        env: { ...env, ACCESS_TOKEN: "", CARD_NUMBER: "" },
        timeout: 300_000,
      }).then(
        () => null,
        (error: { code?: number; stdout: string; stderr: string }) => error,
      );
      expect(failed, "the program must fail").not.toBeNull();
      expect(failed!.code).not.toBe(0);
      expect(failed!.stdout + failed!.stderr).toMatch(
        /Set (ACCESS_TOKEN|CARD_NUMBER) in the environment first/,
      );
      expect(echo.arrivals.get(`${language}-${gift.id}`)?.length).toBe(before);
    }, 600_000);
  }
});
