import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_EVENTS } from "@/lib/shared/audit-events";
import { INQUIRY_AUDIT_EVENTS } from "@/lib/server/inquiry/inquiry-route";
import { SUPPORT_AUDIT_EVENTS } from "@/lib/server/support/audit-rows";

const root = path.resolve(__dirname, "../../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every `event: "name"` the server's routes and lib write (the audit log's own query code names no event). */
function writtenEventLiterals(): Set<string> {
  const names = new Set<string>();
  const files = [...sourceFiles(path.join(root, "app")), ...sourceFiles(path.join(root, "lib"))].filter(
    (file) =>
      !file.startsWith(path.join(root, "lib/server/audit/")) ||
      file.endsWith("anonymous-refusals.ts") ||
      file.endsWith("keyed-start.ts"),
  );
  for (const file of files) {
    for (const match of readFileSync(file, "utf8").matchAll(/\bevent: "([a-z_.]+)"/g)) names.add(match[1]!);
  }
  return names;
}

describe("audit event names", () => {
  it("lists every event the server writes, so the audit page's suggestions are complete", () => {
    const listed = new Set<string>(AUDIT_EVENTS);
    for (const name of [
      ...writtenEventLiterals(),
      ...Object.values(SUPPORT_AUDIT_EVENTS),
      ...Object.values(INQUIRY_AUDIT_EVENTS),
    ]) {
      expect(listed, `${name} is written but not in AUDIT_EVENTS`).toContain(name);
    }
  });

  it("lists no event that nothing writes, so the suggestions cannot go stale", () => {
    const written = new Set<string>([
      ...writtenEventLiterals(),
      ...Object.values(SUPPORT_AUDIT_EVENTS),
      ...Object.values(INQUIRY_AUDIT_EVENTS),
    ]);
    expect(AUDIT_EVENTS.filter((name) => !written.has(name))).toEqual([]);
  });
});
