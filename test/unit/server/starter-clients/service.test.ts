/**
 * The starter clients' catalogue and zips (lib/server/starter-clients): every catalogue language has its folder
 * with the contract's files, each client's own checker accepts its source, and a zip (and the standalone build)
 * holds exactly the files the allowlist (lib/server/starter-clients/files.mjs) names, nothing a run leaves.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, describe, expect, test } from "vitest";
import { STARTER_CLIENTS } from "@/lib/server/starter-clients/catalogue";
import { STARTER_CLIENT_FILES, STARTER_CLIENT_TESTING_FILES } from "@/lib/server/starter-clients/files.mjs";
import { createStarterClientsService } from "@/lib/server/starter-clients/service";
import { ApiError } from "@/lib/server/util/errors";

const root = path.resolve(__dirname, "../../../..");
const scratch = mkdtempSync(path.join(os.tmpdir(), "starter-unit-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const has = (command: string, args: string[]) => spawnSync(command, args).status === 0;

/** Each language's own syntax check, where this machine has the runtime (java and go: their folder's README). */
const CHECKERS: Record<
  string,
  { file: string; available: () => boolean; check: (file: string) => string[] }
> = {
  node: { file: "client.mjs", available: () => true, check: (file) => [process.execPath, "--check", file] },
  python: {
    file: "client.py",
    available: () => has("python3", ["--version"]),
    // Compiled into the scratch folder, so that no __pycache__ lands in the source folder.
    check: (file) => [
      "python3",
      "-c",
      "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
      file,
      path.join(scratch, "client.pyc"),
    ],
  },
};

describe("the starter clients' folders", () => {
  test.each(Object.keys(CHECKERS))("the %s client passes its language's own checker", (language) => {
    const checker = CHECKERS[language]!;
    if (!checker.available()) return;
    const [command = "", ...args] = checker.check(path.join(root, "starter-clients", language, checker.file));
    const result = spawnSync(command, args, { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  test("every folder present holds the contract's files; each .env.example names the six variables", () => {
    for (const client of STARTER_CLIENTS.filter((entry) => existsSync(path.join(root, entry.folder)))) {
      for (const file of ["README.md", ".env.example"])
        expect(existsSync(path.join(root, client.folder, file)), `${client.language}/${file}`).toBe(true);
      const example = readFileSync(path.join(root, client.folder, ".env.example"), "utf8");
      for (const variable of [
        "AUTH_URL",
        "BASE_URL",
        "CLIENT_ID",
        "CLIENT_SECRET",
        "TIMEOUT_MS",
        "TOKEN_CACHE",
      ])
        expect(example, `${client.language}: CARD_API_${variable}`).toMatch(
          new RegExp(`^CARD_API_${variable}=`, "m"),
        );
    }
    for (const language of ["node", "python"])
      expect(existsSync(path.join(root, "starter-clients", language)), language).toBe(true);
  });

  test.each(["node", "python"])(
    "the %s README's duty table points at the lines that do each duty",
    (language) => {
      const folder = path.join(root, "starter-clients", language);
      const readme = readFileSync(path.join(folder, "README.md"), "utf8");
      const source = readFileSync(path.join(folder, CHECKERS[language]!.file), "utf8").split("\n");
      const pointers = [...readme.matchAll(/`(\w+)` \((?:line )?([1-9]\d*)\)/g)];
      expect(pointers.length).toBeGreaterThanOrEqual(8);
      for (const [, name = "", line] of pointers)
        expect(source[Number(line) - 1], `${name} at line ${line}`).toMatch(new RegExp(`\\b${name}\\b`));
    },
  );
});

describe("the starter clients service", () => {
  test("lists every catalogue language with its title and how to run it, no folder", () => {
    const { clients } = createStarterClientsService(root).list();
    expect(clients.map((client) => client.language)).toEqual(["node", "python", "java", "go"]);
    for (const client of clients) expect(Object.keys(client).sort()).toEqual(["language", "run", "title"]);
  });

  test("zips exactly the files the allowlist names, never what a run leaves (.env.local, a renamed token cache, …)", async () => {
    const appDir = path.join(scratch, "app");
    const folder = path.join(appDir, "starter-clients/node");
    mkdirSync(path.join(folder, "__pycache__"), { recursive: true });
    mkdirSync(path.join(folder, "lib"), { recursive: true });
    writeFileSync(path.join(folder, "client.mjs"), "export {};\n");
    writeFileSync(path.join(folder, "README.md"), "# Node\n");
    writeFileSync(path.join(folder, ".env.example"), "CARD_API_CLIENT_SECRET=\n");
    writeFileSync(path.join(folder, "lib/part.mjs"), "export const part = 1;\n");
    writeFileSync(path.join(folder, ".env"), "CARD_API_CLIENT_SECRET=real\n");
    writeFileSync(path.join(folder, ".env.local"), "CARD_API_CLIENT_SECRET=real\n");
    writeFileSync(path.join(folder, ".card-api-token.json"), '{"access_token":"live"}');
    writeFileSync(path.join(folder, "token-cache.json.bak"), '{"access_token":"live"}');
    writeFileSync(path.join(folder, "__pycache__/client.pyc"), "x");
    writeFileSync(path.join(folder, "CardApiClient.class"), "x");
    writeFileSync(path.join(folder, "cardapiclient"), "x");
    for (const file of STARTER_CLIENT_TESTING_FILES) {
      mkdirSync(path.dirname(path.join(appDir, "starter-clients", file)), { recursive: true });
      writeFileSync(path.join(appDir, "starter-clients", file), "x");
    }
    writeFileSync(path.join(appDir, "starter-clients/testing/last-run.log"), "x");
    writeFileSync(path.join(folder, "client.test.mjs"), "x");
    const service = createStarterClientsService(appDir);
    const { zip, fileName } = await service.zip("node");
    expect(fileName).toBe("card-api-client-node.zip");
    const files = unzipSync(zip);
    // The client's own files and, as its testing/ folder, the fault server its tests run against.
    expect(Object.keys(files).sort()).toEqual(
      [...STARTER_CLIENT_FILES.node!, ...STARTER_CLIENT_TESTING_FILES]
        .map((file) => `card-api-client-node/${file}`)
        .sort(),
    );
    expect(strFromU8(files["card-api-client-node/client.mjs"]!)).toBe("export {};\n");
    // Built once: the second answer is the same bytes, without reading the folder again.
    rmSync(path.join(folder, "client.mjs"));
    expect((await service.zip("node")).zip).toBe(zip);
    // A listed file missing: that client is not served (never a zip without it).
    await expect(createStarterClientsService(appDir).zip("node")).rejects.toMatchObject({
      code: "not_found",
    });
  });

  test("the standalone build copies the same allowlist, and stops when a listed file is missing", async () => {
    const { copyStarterClients } = await import("@/scripts/standalone.mjs");
    const source = path.join(scratch, "source");
    for (const [language, listed] of Object.entries(STARTER_CLIENT_FILES)) {
      for (const file of listed) {
        mkdirSync(path.dirname(path.join(source, language, file)), { recursive: true });
        writeFileSync(path.join(source, language, file), "x");
      }
      writeFileSync(path.join(source, language, ".env.local"), "CARD_API_CLIENT_SECRET=real\n");
      writeFileSync(path.join(source, language, "my-token.json"), '{"access_token":"live"}');
    }
    writeFileSync(path.join(source, "README.md"), "x");
    for (const file of STARTER_CLIENT_TESTING_FILES) {
      mkdirSync(path.dirname(path.join(source, file)), { recursive: true });
      writeFileSync(path.join(source, file), "x");
    }
    const target = path.join(scratch, "standalone-clients");
    copyStarterClients(target, source);
    const shipped = readdirSync(target, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(target, path.join(entry.parentPath, entry.name)))
      .sort();
    const listed = Object.entries(STARTER_CLIENT_FILES).flatMap(([language, files]) =>
      files.map((file) => `${language}/${file}`),
    );
    expect(shipped).toEqual(["README.md", ...STARTER_CLIENT_TESTING_FILES, ...listed].sort());
    rmSync(path.join(source, "go/main.go"));
    expect(() => copyStarterClients(target, source)).toThrow(/go\/main\.go/);
  });

  test("every catalogue language has its allowlist", () => {
    for (const client of STARTER_CLIENTS)
      expect(STARTER_CLIENT_FILES[client.language], client.language).toBeDefined();
  });

  test("an unknown language, or one whose folder the build lacks, is 404 not_found", async () => {
    const service = createStarterClientsService(path.join(scratch, "empty"));
    await expect(service.zip("cobol")).rejects.toThrow(ApiError);
    await expect(service.zip("go")).rejects.toMatchObject({ code: "not_found" });
  });
});
