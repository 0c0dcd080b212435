/**
 * The documentation checks of `npm run lint` (scripts/check-docs.mjs): a broken link or anchor, and a "§" that
 * names no document of the repository (or a section its document lacks), must fail. The section sign is written
 * "\u00a7" in this file so that the checker, which reads the tests too, sees no reference here.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  anchorsOf,
  badSectionRefs,
  brokenLink,
  checkDocs,
  linksOf,
  sectionsOf,
  slug,
  unnamedSectionRefs,
} from "@/scripts/check-docs.mjs";

const S = "\u00a7";
const DESIGN = `# Design\n\n## 1. Shape\n\n## 4. Console HTTP interface\n\n## 13. Monitors: certification on a schedule\n`;
const read = (files: Record<string, string>) => (path: string) => files[path];

describe("check-docs: anchors", () => {
  it("gives headings GitHub's anchors, repeats numbered", () => {
    expect(slug("With an OpenID Connect provider (`AUTH_MODE=oidc`)")).toBe(
      "with-an-openid-connect-provider-auth_modeoidc",
    );
    expect(slug("`GET /api/me`")).toBe("get-apime");
    expect(slug("13. Monitors: certification on a schedule")).toBe("13-monitors-certification-on-a-schedule");
    expect([...anchorsOf("# A\n\n## Notes\n\n```sh\n# not a heading\n```\n\n## Notes\n")]).toEqual([
      "a",
      "notes",
      "notes-1",
    ]);
  });

  it("reads links and images, but not those in code", () => {
    const markdown =
      "See [a](a.md#x) and ![b](img/b.png).\n\n```md\n[c](c.md)\n```\n\n`[d](d.md)` [e](<e f.md>)\n";
    expect(linksOf(markdown).map((link) => link.target)).toEqual(["a.md#x", "img/b.png", "e f.md"]);
  });
});

describe("check-docs: links", () => {
  const files = {
    "README.md": "# Console\n\n## Quick start\n",
    "docs/guide/admin.md": "# Admin\n\n## The audit log\n",
  };

  it("accepts a link to a file and to one of its headings", () => {
    expect(
      brokenLink("/repo", "docs/guide/admin.md", "../../README.md#quick-start", read(files)),
    ).toBeUndefined();
    expect(
      brokenLink("/repo", "README.md", "docs/guide/admin.md#the-audit-log", read(files)),
    ).toBeUndefined();
    expect(brokenLink("/repo", "README.md", "#quick-start", read(files))).toBeUndefined();
    expect(brokenLink("/repo", "README.md", "https://example.com/x.md#nowhere", read(files))).toBeUndefined();
  });

  it("refuses a missing file, a missing heading and a path out of the repository", () => {
    expect(brokenLink("/repo", "README.md", "docs/guide/tester.md", read(files))).toMatch(/no such file/);
    expect(brokenLink("/repo", "README.md", "docs/guide/admin.md#sessions", read(files))).toMatch(
      /no heading #sessions/,
    );
    expect(brokenLink("/repo", "README.md", "#for-a-team", read(files))).toMatch(/no heading #for-a-team/);
    expect(brokenLink("/repo", "README.md", "../shared/DESIGN.md", read(files))).toMatch(
      /outside the repository/,
    );
  });
});

describe("check-docs: section references", () => {
  const files = { "docs/design.md": DESIGN };

  it("takes numbered headings as a document's sections", () => {
    expect([...sectionsOf(DESIGN)]).toEqual(["1", "4", "13"]);
  });

  it("accepts references that name their document, lists and ranges included", () => {
    const text = [
      `// docs/design.md ${S}4 and ${S}13: the routes and the monitors.`,
      `// API specification ${S}4.3, ${S}4.5 and ${S}5.7–5.8; RFC 9110 ${S}7.6.1.`,
      `const label = \`${S}\${section}\`;`,
      `<p>(API\n  specification ${S}4.1). Wrapped JSX text.</p>`,
    ].join("\n");
    expect(badSectionRefs(text, read(files))).toEqual([]);
  });

  it("refuses a bare reference, the old design name and a spec shorthand", () => {
    for (const bad of [`the ${S}8 bundle`, `(DESIGN.md ${S}4)`, `(spec ${S}7)`, `"${S}5.7"`]) {
      expect(unnamedSectionRefs(bad), bad).toHaveLength(1);
      expect(badSectionRefs(bad, read(files))[0]?.problem, bad).toMatch(/names no document/);
    }
  });

  it("refuses a section the document does not have, and a document the repository does not have", () => {
    expect(badSectionRefs(`docs/design.md ${S}4, ${S}15`, read(files)).map((found) => found.problem)).toEqual(
      [`docs/design.md has no ${S}15`],
    );
    expect(badSectionRefs(`docs/guide.md ${S}2`, read(files)).map((found) => found.problem)).toEqual([
      "docs/guide.md does not exist",
    ]);
  });
});

describe("check-docs: a checkout", () => {
  let root = "";
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("finds a broken link in the docs and an unnamed reference in the source, with file and line", () => {
    root = mkdtempSync(join(tmpdir(), "check-docs-"));
    mkdirSync(join(root, "docs/guide"), { recursive: true });
    mkdirSync(join(root, "lib"), { recursive: true });
    writeFileSync(
      join(root, "README.md"),
      "# Console\n\n[Admin](docs/guide/admin.md) · [Design](docs/design.md)\n",
    );
    writeFileSync(join(root, "docs/design.md"), DESIGN);
    writeFileSync(
      join(root, "docs/guide/admin.md"),
      "# Admin\n\nBack to [the door](../../README.md#quick-start).\n",
    );
    writeFileSync(join(root, "lib/a.ts"), `// docs/design.md ${S}4\n// the ${S}8 bundle\n`);
    expect(checkDocs(root)).toEqual([
      {
        file: "docs/guide/admin.md",
        line: 3,
        problem: "broken link ../../README.md#quick-start: no heading #quick-start in README.md",
      },
      {
        file: "lib/a.ts",
        line: 2,
        problem: `"${S}8" names no document: write docs/<file>.md ${S}N or API specification ${S}N`,
      },
    ]);
  });
});
