/**
 * Every console API route declares who may call it (lib/server/http/access.ts): this imports every app/api route module
 * and checks that each exported method handler carries a declaration, and that the routes that touch cards,
 * credentials or the audit log declare the actions docs/design.md §6 gives them.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { declaredAccess, type RouteAccess } from "@/lib/server/http/access";

const root = path.resolve(__dirname, "../../../..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

function routeFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

const files = routeFiles(path.join(root, "app/api"));

async function accessOf(relative: string, method: string): Promise<RouteAccess | undefined> {
  const routeModule = (await import(path.join(root, relative))) as Record<string, unknown>;
  return declaredAccess(routeModule[method]);
}

describe("route access declarations", () => {
  it("finds the console's API routes", () => {
    expect(files.length).toBeGreaterThanOrEqual(17);
  });

  it.each(files.map((file) => [path.relative(root, file)]))(
    "%s: every exported method handler declares its access",
    async (relative) => {
      const routeModule = (await import(path.join(root, relative))) as Record<string, unknown>;
      const exported = METHODS.filter((method) => typeof routeModule[method] === "function");
      expect(exported.length).toBeGreaterThan(0);
      for (const method of exported) {
        expect(declaredAccess(routeModule[method]), `${relative} ${method}`).toBeDefined();
      }
    },
  );

  it("maps the routes that touch cards, credentials and the log onto the role table", async () => {
    expect(await accessOf("app/api/inquiries/gift-balance/route.ts", "POST")).toEqual({
      kind: "environment",
      actions: ["gift_balance_inquiry", "raw_exchange"],
    });
    expect(await accessOf("app/api/inquiries/balance/route.ts", "POST")).toEqual({
      kind: "environment",
      actions: ["balance_inquiry", "raw_exchange"],
    });
    // Support may look up by Request Id; the answer is a summary unless the caller may see raw exchanges.
    expect(await accessOf("app/api/transactions/request-id/[id]/route.ts", "GET")).toEqual({
      kind: "environment",
      actions: ["transaction_lookup"],
    });
    expect((await accessOf("app/api/token/route.ts", "POST"))?.kind).toBe("environment");
    expect(await accessOf("app/api/session/credentials/route.ts", "PUT")).toEqual({
      kind: "somewhere",
      action: "token_request",
    });
    expect(await accessOf("app/api/session/route.ts", "GET")).toEqual({ kind: "signed_in" });
    expect(await accessOf("app/api/audit/route.ts", "GET")).toEqual({
      kind: "global",
      actions: ["audit_read"],
    });
    expect(await accessOf("app/api/audit/export.csv/route.ts", "GET")).toEqual({
      kind: "global",
      actions: ["audit_read", "audit_export"],
    });
    for (const open of ["health", "ready", "me", "auth/login", "auth/callback"]) {
      expect(await accessOf(`app/api/${open}/route.ts`, "GET"), open).toEqual({ kind: "public" });
    }
  });
});
