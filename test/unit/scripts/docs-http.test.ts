/**
 * docs/reference/http-interface.md is generated from the route catalogue (npm run docs:http): a route added,
 * removed or changed without regenerating the page fails here, so the committed reference cannot drift.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { errorCodesOf, HTTP_INTERFACE_PAGE, renderHttpInterface } from "@/scripts/docs-http";

describe("docs:http", () => {
  it("the committed HTTP interface page is the one the route catalogue generates", async () => {
    const committed = readFileSync(HTTP_INTERFACE_PAGE, "utf8");
    const generated = await renderHttpInterface();
    // On a difference, say which route's lines differ rather than dumping two 50 KB pages.
    const first = generated.split("\n").findIndex((line, index) => line !== committed.split("\n")[index]);
    expect(first, `line ${first + 1} differs: run npm run docs:http`).toBe(-1);
    expect(committed).toBe(generated);
  });

  it("lists every route of the catalogue, with its roles and error codes", async () => {
    const page = await renderHttpInterface();
    expect(page).toContain("### `POST /api/inquiries/gift-balance`");
    expect(page).toContain("### `GET /api/health`");
    expect(page).toMatch(/### `GET \/api\/audit`\n\n[^\n]*Roles: `admin`\./);
    expect(page).not.toContain("/api/[...");
  });

  it("splits an error answer's description by its codes", () => {
    const answer = {
      description:
        "`invalid_origin`: A cross-origin call. `forbidden_by_role`: The roles do not allow it: admin.",
      "x-error-codes": ["invalid_origin", "forbidden_by_role"],
    };
    expect(errorCodesOf(answer)).toEqual([
      ["invalid_origin", "A cross-origin call."],
      ["forbidden_by_role", "The roles do not allow it: admin."],
    ]);
  });
});
