/**
 * The Java and Go starter clients (docs/design.md §12) as their own toolchains see them: javac compiles the one file
 * with every warning an error, `go vet` and `gofmt` find nothing; and each README's duty table points at the
 * lines that do the duty. A check whose tool is not installed is skipped, never passed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");
const JAVA_DIR = path.join(ROOT, "starter-clients/java");
const GO_DIR = path.join(ROOT, "starter-clients/go");

const has = (tool: string, versionFlag: string) => spawnSync(tool, [versionFlag]).status === 0;

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, GOFLAGS: "" } });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const temporary: string[] = [];
afterAll(() => {
  for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
});

describe("starter clients: Java and Go sources", () => {
  test.skipIf(!has("javac", "-version"))(
    "javac compiles CardApiClient.java with every lint warning an error",
    () => {
      // serial: its exceptions are never serialized, so a serialVersionUID would be noise.
      const out = mkdtempSync(path.join(os.tmpdir(), "java-client-"));
      temporary.push(out);
      const compiled = run(
        "javac",
        ["-Xlint:all,-serial", "-Werror", "-d", out, "CardApiClient.java"],
        JAVA_DIR,
      );
      expect(compiled.output).toBe("");
      expect(compiled.status).toBe(0);
      expect(readdirSync(out)).toContain("CardApiClient.class");
    },
  );

  test.skipIf(!has("go", "version"))("go vet finds nothing and gofmt leaves every file as it is", () => {
    const vet = run("go", ["vet", "./..."], GO_DIR);
    expect(vet.output).toBe("");
    expect(vet.status).toBe(0);
    const format = run("gofmt", ["-l", "."], GO_DIR);
    expect(format).toEqual({ status: 0, output: "" });
  });

  test("the folders hold sources only: no class file, binary or token cache left by a run", () => {
    expect(readdirSync(JAVA_DIR).sort()).toEqual([
      ".env.example",
      "CardApiClient.java",
      "CardApiClientTest.java",
      "README.md",
    ]);
    expect(readdirSync(GO_DIR).sort()).toEqual([
      ".env.example",
      "README.md",
      "cardapi",
      "go.mod",
      "main.go",
      "main_test.go",
    ]);
    expect(readdirSync(path.join(GO_DIR, "cardapi")).sort()).toEqual(["client.go", "client_test.go"]);
    expect(readFileSync(path.join(GO_DIR, "go.mod"), "utf8")).toMatch(/^go 1\.19$/m);
  });
});

/** The README's duty table: each `name` (…line N) reference of its last column, with the file it is in. */
function references(readme: string, defaultFile: string): { name: string; file: string; line: number }[] {
  const found: { name: string; file: string; line: number }[] = [];
  for (const row of readme.split("\n").filter((line) => line.startsWith("| "))) {
    const where = row.split("|").at(-2) ?? "";
    if (!where.includes("line ")) continue;
    let file = defaultFile;
    for (const match of where.matchAll(/`([\w.]+)` \((?:([\w/-]+\.[a-z]+) )?(?:line )?(\d+)\)/g)) {
      if (match[2]) file = match[2];
      found.push({ name: match[1]!.split(".").pop()!, file, line: Number(match[3]) });
    }
  }
  return found;
}

describe.each([
  ["java", JAVA_DIR, "CardApiClient.java"],
  ["go", GO_DIR, "cardapi/client.go"],
])("starter clients: the %s README's duty table", (_language, folder, mainFile) => {
  test("names the line of each function, constant and method it cites", () => {
    const refs = references(readFileSync(path.join(folder, "README.md"), "utf8"), mainFile);
    expect(refs.length).toBeGreaterThanOrEqual(10);
    for (const ref of refs) {
      const line = readFileSync(path.join(folder, ref.file), "utf8").split("\n")[ref.line - 1] ?? "";
      expect({ ...ref, text: line }).toMatchObject({ text: expect.stringContaining(ref.name) });
    }
  });
});
