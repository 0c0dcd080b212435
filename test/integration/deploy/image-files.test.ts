/**
 * Docker cannot run on these machines, so the image and the compose file are checked by reading them against a
 * real build: every path the Dockerfile copies exists, what the image runs (server.js, healthcheck.mjs,
 * sandbox.mjs) is in the standalone output, it runs as an unprivileged user with a health check that needs no
 * curl, and compose.yaml's services, variables and load balancer fit together (and the consoles' environment
 * passes the console's own configuration parser).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { parse as parseYaml } from "yaml";
import { loadConfig } from "@/lib/server/config";
import { parseCidrList } from "@/lib/server/util/ip-address";

const root = path.resolve(__dirname, "../../..");
const distDir = process.env.NEXT_DIST_DIR || ".next";
const standalone = path.join(root, distDir, "standalone");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

interface Instruction {
  stage: string;
  keyword: string;
  args: string;
}

/** Dockerfile instructions (continuations joined, comments dropped), each with the stage it belongs to. */
function dockerfileInstructions(text: string): Instruction[] {
  const logical = text
    .split("\n")
    .filter((line) => !line.trim().startsWith("#"))
    .join("\n")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  let stage = "";
  return logical.map((line) => {
    const [keyword = "", ...rest] = line.split(/\s+/);
    const args = rest.join(" ");
    if (keyword.toUpperCase() === "FROM") stage = args.match(/\bAS\s+(\S+)/i)?.[1] ?? args;
    return { stage, keyword: keyword.toUpperCase(), args };
  });
}

/** A path of the build stage (/app/…) in this repository, with the build's dist folder. */
function builtPath(source: string): string {
  const relative = source.replace(/^\/app\/?/, "").replace(/^\.next(?=\/|$)/, distDir);
  return path.join(root, relative);
}

describe("Dockerfile", () => {
  const instructions = dockerfileInstructions(read("Dockerfile"));
  const runtime = instructions.filter((instruction) => instruction.stage === "runtime");

  test("every stage starts from the same Node LTS (22 or 24) on bookworm-slim, and the last one is the runtime", () => {
    const froms = instructions.filter(({ keyword }) => keyword === "FROM");
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) expect(from.args).toMatch(/^node:(22|24)(\.\d+){0,2}-bookworm-slim\b/);
    expect(new Set(froms.map(({ args }) => args.split(" ")[0])).size).toBe(1);
    expect(instructions.at(-1)?.stage).toBe("runtime");
  });

  test("every path it copies exists after a build", () => {
    expect(existsSync(path.join(standalone, "server.js")), "no standalone build: run ensure-build").toBe(
      true,
    );
    const copies = instructions.filter(({ keyword }) => keyword === "COPY");
    expect(copies.length).toBeGreaterThan(0);
    for (const { args } of copies) {
      const parts = args.split(/\s+/).filter((part) => !part.startsWith("--"));
      const sources = parts.slice(0, -1);
      const fromStage = args.match(/--from=(\S+)/)?.[1];
      for (const source of sources) {
        const local = fromStage === "build" ? builtPath(source) : path.join(root, source);
        // `COPY . .` and the deps stage's node_modules are made by the build itself.
        if (source === "." || source === "/app/node_modules") continue;
        expect(existsSync(local), `COPY ${args}: ${source} is missing`).toBe(true);
      }
    }
  });

  test("the runtime copies only the standalone output (starter clients' listed files in it), .next/static, public, the migrations", () => {
    const copied = runtime
      .filter(({ keyword }) => keyword === "COPY")
      .map(({ args }) => args.split(/\s+/).filter((part) => !part.startsWith("--"))[0]);
    expect(copied).toEqual([
      "/app/.next/standalone",
      "/app/.next/static",
      "/app/public",
      "/app/db/migrations",
    ]);
  });

  test("what the image runs is in the standalone output: server.js (our server), healthcheck.mjs, sandbox.mjs", () => {
    const command = runtime.find(({ keyword }) => keyword === "CMD")?.args;
    expect(command).toBe('["node", "--max-old-space-size=384", "server.js"]');
    expect(readFileSync(path.join(standalone, "server.js"), "utf8")).toContain("./serve.mjs");
    expect(readFileSync(path.join(standalone, "serve.mjs"), "utf8")).toBe(read("scripts/serve.mjs"));
    expect(existsSync(path.join(standalone, "healthcheck.mjs"))).toBe(true);
    expect(existsSync(path.join(standalone, "sandbox.mjs"))).toBe(true);
    expect(existsSync(path.join(standalone, "node_modules/@electric-sql/pglite/dist/pglite.wasm"))).toBe(
      true,
    );
    expect(existsSync(path.join(standalone, "db/migrations/meta/_journal.json"))).toBe(true);
  });

  test("runs as an unprivileged user it creates", () => {
    const users = runtime.filter(({ keyword }) => keyword === "USER").map(({ args }) => args);
    expect(users).toHaveLength(1);
    expect(users[0]).not.toMatch(/^(root|0)(:|$)/);
    const created = runtime.some(
      ({ keyword, args }) => keyword === "RUN" && args.includes(`useradd`) && args.includes(users[0]!),
    );
    expect(created).toBe(true);
    const userIndex = runtime.findIndex(({ keyword }) => keyword === "USER");
    const cmdIndex = runtime.findIndex(({ keyword }) => keyword === "CMD");
    expect(userIndex).toBeLessThan(cmdIndex);
  });

  test("has a HEALTHCHECK on /api/health that needs no curl", () => {
    const healthcheck = runtime.find(({ keyword }) => keyword === "HEALTHCHECK")?.args ?? "";
    expect(healthcheck).toMatch(/CMD \["node", "healthcheck\.mjs"\]/);
    for (const { args } of instructions) expect(args).not.toMatch(/\b(curl|wget)\b/);
    expect(read("scripts/healthcheck.mjs")).toContain("/api/health");
  });
});

describe(".dockerignore", () => {
  const ignored = read(".dockerignore")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));

  test("keeps dependencies, builds, local data and environment files out of the build context", () => {
    for (const entry of ["node_modules", ".next", ".data", ".git", ".env", ".env.*"])
      expect(ignored).toContain(entry);
  });

  test("keeps in what the build needs", () => {
    for (const needed of [
      "app",
      "components",
      "lib",
      "db",
      "public",
      "scripts",
      "package.json",
      "next.config.js",
    ]) {
      expect(ignored).not.toContain(needed);
    }
  });
});

describe("compose.yaml", () => {
  type Service = {
    image?: string;
    build?: string;
    command?: string[];
    environment?: Record<string, string>;
    depends_on?: Record<string, unknown>;
    network_mode?: string;
    volumes?: string[];
    networks?: { default?: { ipv4_address?: string; aliases?: string[] } };
  };
  const compose = parseYaml(read("compose.yaml"), { merge: true }) as {
    services: Record<string, Service>;
    networks: { default: { ipam: { config: { subnet: string }[] } } };
    volumes: Record<string, unknown>;
  };
  const services = compose.services;
  const consoles = Object.entries(services).filter(([name]) => name.startsWith("console-"));
  const caddyfile = read("deploy/Caddyfile");
  const SHARED = ["SESSION_SECRET", "DATABASE_URL", "AUDIT_HMAC_KEY", "EVIDENCE_SIGNING_KEY"];

  test("two console instances of one image, sharing every variable docs/design.md §10 names (required, not defaulted)", () => {
    expect(consoles.map(([name]) => name)).toEqual(["console-1", "console-2"]);
    const [first, second] = consoles.map(([, service]) => service);
    expect(first!.image).toBe(second!.image);
    for (const name of SHARED) {
      expect(first!.environment?.[name], name).toBeDefined();
      expect(second!.environment?.[name]).toBe(first!.environment?.[name]);
      expect(first!.environment?.[name]).toMatch(/\$\{\w+:\?/);
    }
    expect(first!.environment).toEqual(second!.environment);
  });

  test("every service it depends on, and every volume it mounts, is defined", () => {
    for (const [name, service] of Object.entries(services)) {
      for (const dependency of Object.keys(service.depends_on ?? {})) {
        expect(services[dependency], `${name} depends on ${dependency}`).toBeDefined();
      }
      for (const volume of service.volumes ?? []) {
        const source = volume.split(":")[0]!;
        if (source.startsWith(".")) expect(existsSync(path.join(root, source)), volume).toBe(true);
        else expect(compose.volumes[source], volume).toBeDefined();
      }
    }
  });

  test("DATABASE_URL names the postgres service with its user, password and database", () => {
    const url = new URL(consoles[0]![1].environment!.DATABASE_URL!.replace(/\$\{(\w+):\?[^}]*\}/g, "$1"));
    expect(services[url.hostname]).toBeDefined();
    const postgres = services[url.hostname]!.environment!;
    expect(url.username).toBe(postgres.POSTGRES_USER);
    expect(url.pathname).toBe(`/${postgres.POSTGRES_DB}`);
    expect(postgres.POSTGRES_PASSWORD).toContain(url.password);
  });

  test("the upstream is the standalone sandbox from the same image, served by the load balancer", () => {
    const environment = consoles[0]![1].environment!;
    expect(environment.EMBEDDED_SANDBOX).toBe("off");
    const sandbox = services.sandbox!;
    expect(sandbox.image).toBe(consoles[0]![1].image);
    expect(sandbox.command).toEqual(["node", "sandbox.mjs"]);
    const lbName = sandbox.network_mode?.replace(/^service:/, "");
    expect(services[lbName!]).toBeDefined();
    const authUrl = new URL(environment.CARD_API_AUTH_URL!);
    expect(environment.CARD_API_SANDBOX_URL).toBe(environment.CARD_API_AUTH_URL);
    expect(services[lbName!]!.networks?.default?.aliases).toContain(authUrl.hostname);
    // Caddy serves that address and hands it to the sandbox on the shared loopback (its default port).
    const site = caddyfile.match(
      new RegExp(`^${authUrl.origin.replace(/[.:/]/g, "\\$&")} \\{([^}]*)\\}`, "m"),
    )?.[1];
    expect(site).toMatch(/reverse_proxy 127\.0\.0\.1:4010/);
    expect(environment.NODE_EXTRA_CA_CERTS).toMatch(/^\/caddy-data\//);
  });

  test("the load balancer spreads over every console, checks /api/ready, and is the one trusted proxy", () => {
    const upstreams = caddyfile
      .match(/reverse_proxy (console-[^{]+)\{/)?.[1]
      ?.trim()
      .split(/\s+/);
    const environment = consoles[0]![1].environment!;
    expect(upstreams).toEqual(consoles.map(([name]) => `${name}:${environment.PORT}`));
    expect(caddyfile).toMatch(/health_uri \/api\/ready/);
    expect(caddyfile).toMatch(/lb_policy round_robin/);
    const lb = services.lb!;
    const address = lb.networks?.default?.ipv4_address;
    expect(parseCidrList(environment.TRUSTED_PROXIES!).has(address!)).toBe(true);
    expect(parseCidrList(compose.networks.default.ipam.config[0]!.subnet).has(address!)).toBe(true);
    expect(environment.HOSTNAME).toBe("0.0.0.0");
    // The health checks send the host the consoles answer to.
    expect(caddyfile).toMatch(/Host \{\$CONSOLE_HOST\}/);
    expect(environment.PUBLIC_URL).toBe(`http://${lb.environment!.CONSOLE_HOST}`);
  });

  test("every variable it reads is listed in deploy/compose.env.example", () => {
    const listed = new Set(
      [...read("deploy/compose.env.example").matchAll(/^(\w+)=/gm)].map((match) => match[1]),
    );
    const used = new Set([...read("compose.yaml").matchAll(/\$\{(\w+)/g)].map((match) => match[1]));
    expect([...used].filter((name) => !listed.has(name))).toEqual([]);
  });

  test("the consoles' environment passes the console's configuration parser", () => {
    const sample: Record<string, string> = {
      SESSION_SECRET: "s".repeat(40),
      AUDIT_HMAC_KEY: "a".repeat(40),
      EVIDENCE_SIGNING_KEY:
        "-----BEGIN PRIVATE KEY-----\\nMC4CAQAwBQYDK2VwBCIEIA==\\n-----END PRIVATE KEY-----",
      POSTGRES_PASSWORD: "pw",
    };
    const substitute = (value: string) =>
      value.replace(
        /\$\{(\w+)(?::([?-])([^}]*))?\}/g,
        (_, name: string, kind?: string, rest?: string) => sample[name] ?? (kind === "-" ? (rest ?? "") : ""),
      );
    const env = Object.fromEntries(
      Object.entries(consoles[0]![1].environment!).map(([name, value]) => [name, substitute(String(value))]),
    );
    // Sign-in (AUTH_MODE=oidc) is checked by its own tests with a provider; the rest must parse as is.
    const config = loadConfig({ ...env, AUTH_MODE: "none" });
    expect(config.environments.map(({ name }) => name)).toEqual(["sandbox"]);
    expect(config.databaseUrl).toMatch(/^postgres:\/\/console:pw@postgres:5432\/console$/);
    expect(config.sessionSecretGenerated).toBe(false);
  });
});
