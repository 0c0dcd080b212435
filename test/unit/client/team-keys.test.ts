import { describe, expect, it } from "vitest";
import { auditExportUrl, auditPageKey, loginUrl } from "@/lib/client/api-keys";

describe("team URLs built for the pages", () => {
  it("sends the visitor back to the page they asked for after sign-in", () => {
    expect(loginUrl("/inquiry?x=1")).toBe("/api/auth/login?return_to=%2Finquiry%3Fx%3D1");
  });

  it("puts only the filters that are set into the audit query, with the cursor and page size", () => {
    expect(auditPageKey({})).toBe("/api/audit?limit=50");
    expect(auditPageKey({ user: "eve", event: "", card: "0001" }, "42", 10)).toBe(
      "/api/audit?user=eve&card=0001&cursor=42&limit=10",
    );
    expect(auditPageKey({ from: "2026-11-23T00:00:00.000Z" }, null)).toBe(
      "/api/audit?from=2026-11-23T00%3A00%3A00.000Z&limit=50",
    );
  });

  it("exports exactly the filtered rows: the same filters, no cursor or page size", () => {
    expect(auditExportUrl({ event: "sign_in", to: "2026-11-23T01:00:00.000Z" })).toBe(
      "/api/audit/export.csv?event=sign_in&to=2026-11-23T01%3A00%3A00.000Z",
    );
    expect(auditExportUrl({})).toBe("/api/audit/export.csv");
  });
});
