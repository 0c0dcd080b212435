/**
 * The route catalogue (lib/server/routes) and the route files agree: every app/api route file serves
 * its own template's entry, every entry has a route file, every declared method is served and nothing else is;
 * and the OpenAPI document lists each served method with the access the route enforces.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { declaredAccess } from "@/lib/server/http/access";
import { ROUTE_METHODS, type DeclaredRoute } from "@/lib/server/http/declaration";
import { declarationOf, defineRoute } from "@/lib/server/http/route-methods";
import { ROUTES } from "@/lib/server/routes";
import { consoleOpenApiDocument, documentPath } from "@/lib/server/openapi/console-document";

const root = path.resolve(__dirname, "../../../..");
const api = path.join(root, "app/api");

function routeFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

/** `app/api/runs/[id]/route.ts` → `/api/runs/[id]`. */
const templateOf = (file: string) => `/api${path.dirname(file).slice(api.length)}`.replace(/\\/g, "/");

const files = routeFiles(api);
const catalogue = ROUTES as Record<string, DeclaredRoute>;

async function served(file: string): Promise<Record<string, unknown>> {
  return (await import(file)) as Record<string, unknown>;
}

describe("the route catalogue", () => {
  it("has an entry for every route file, and a route file for every entry", () => {
    expect(files.map(templateOf).sort()).toEqual(Object.keys(catalogue).sort());
  });

  it.each(files.map((file) => [templateOf(file), file]))(
    "%s serves exactly the methods its entry declares, each with its own declaration",
    async (template, file) => {
      const routeModule = await served(file);
      const entry = catalogue[template]!;
      for (const method of ROUTE_METHODS) {
        expect(declarationOf(routeModule[method]), `${method} ${template}`).toBe(entry[method]);
      }
    },
  );

  it("refuses, when a route file is defined, a declared method it does not serve or another's declaration", () => {
    const runs = ROUTES["/api/certification/runs"];
    const handler = Object.assign(async () => new Response(null), {}) as never;
    expect(() => defineRoute(runs, { GET: handler, POST: handler })).toThrow(
      "GET /api/certification/runs: declared in the catalogue, not served.",
    );
    const other = ROUTES["/api/health"];
    const { GET } = defineRoute(other, { GET: stub(other.GET) });
    expect(() => defineRoute(runs, { GET, POST: GET })).toThrow(
      "GET /api/certification/runs: declared in the catalogue, served with the declaration of GET /api/health.",
    );
  });
});

/** A handler carrying `declaration`, as `apiRoute` makes one (without a root to run it). */
function stub(declaration: object): never {
  return Object.assign(async () => new Response(null), {
    [Symbol.for("card-services-console.route-access")]: { kind: "public" },
    [Symbol.for("card-services-console.route-declaration")]: declaration,
  }) as never;
}

describe("the OpenAPI document generated from the catalogue", () => {
  const document = consoleOpenApiDocument("http://localhost:3000") as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };

  it.each(files.map((file) => [templateOf(file), file]))(
    "%s: every method the route serves, with the access it enforces",
    async (template, file) => {
      const routeModule = await served(file);
      const methods = ROUTE_METHODS.filter((method) => declarationOf(routeModule[method]));
      if (template.includes("[...")) return expect(document.paths[documentPath(template)]).toBeUndefined();
      const operations = document.paths[documentPath(template)] ?? {};
      expect(Object.keys(operations).sort()).toEqual(methods.map((method) => method.toLowerCase()).sort());
      for (const method of methods) {
        const operation = operations[method.toLowerCase()]!;
        expect(operation["x-console-access"], `${method} ${template}`).toEqual(
          declaredAccess(routeModule[method]),
        );
        if (declaredAccess(routeModule[method])?.kind !== "public")
          expect(operation.security, `${method} ${template}`).toEqual([{ sessionCookie: [] }]);
      }
    },
  );

  it("derives the wrapper's own errors from a route's access and options, beside the ones it declares", () => {
    const responses = (template: string, method: string) =>
      document.paths[template]![method]!.responses as Record<string, { "x-error-codes"?: string[] }>;
    const gift = responses("/api/inquiries/gift-balance", "post");
    expect(gift["401"]?.["x-error-codes"]).toEqual(
      expect.arrayContaining(["not_signed_in", "no_credentials"]),
    );
    expect(gift["403"]?.["x-error-codes"]).toEqual(
      expect.arrayContaining(["invalid_origin", "forbidden_by_role", "user_suspended"]),
    );
    expect(gift["415"]?.["x-error-codes"]).toEqual(["unsupported_media_type"]);
    expect(gift["413"]?.["x-error-codes"]).toEqual(["payload_too_large"]);
    expect(gift["429"]?.["x-error-codes"]).toEqual(["rate_limited"]);
    expect(gift["504"]?.["x-error-codes"]).toEqual(["upstream_timeout"]);
    const health = responses("/api/health", "get");
    expect(Object.keys(health).sort()).toEqual(["200", "400", "421", "500"]);
    const run = responses("/api/certification/runs/{id}", "get");
    expect(run["404"]?.["x-error-codes"]).toEqual(["not_found"]);
    expect(run["415"]).toBeUndefined();
  });

  it("says which roles may call each operation", () => {
    const operation = (template: string, method: string) => document.paths[template]![method]!;
    expect(operation("/api/audit", "get")["x-console-roles"]).toEqual(["admin"]);
    expect(operation("/api/monitors", "post")["x-console-roles"]).toEqual(["tester", "admin"]);
    expect(operation("/api/certification/runs", "post").description).toContain(
      "`tester`, `admin` everywhere; `engineer` on embedded, sandbox",
    );
    expect(operation("/api/health", "get").security).toEqual([]);
  });
});
