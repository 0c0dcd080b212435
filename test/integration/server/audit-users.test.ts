/**
 * `GET /api/audit/users` on a started console behind a proxy (AUTH_MODE=proxy), where every user the proxy names
 * leaves rows: every user the log knows is offered, searched by part of the id in any case, bounded, bad input
 * is a 400, only admins may read it, and each read is itself an audit row.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConsoleServer } from "@/test/support/console-server";
import { proxyIdentity, startProxyConsole } from "@/test/support/proxy-console";

const SECRET = "proxy-shared-secret-for-audit-users";
const identity = proxyIdentity(SECRET);
const ADMIN = identity("ada", "console-admins");
const FILLERS = Array.from({ length: 30 }, (_, index) => `x-${String(index).padStart(3, "0")}`);

let server: ConsoleServer;

beforeAll(async () => {
  server = await startProxyConsole({
    secret: SECRET,
    roleGroups: "admin:console-admins,support:support-desk",
  });
  // A user without a role is refused: one `refused` row each.
  for (const user of ["early-bird", "Bob", "carol", ...FILLERS]) {
    const refused = await fetch(`${server.url}/api/session`, { headers: identity(user, "nobody") });
    expect(refused.status).toBe(403);
  }
});
afterAll(() => server?.stop());

async function users(query: string, headers: Record<string, string> = ADMIN) {
  const response = await fetch(`${server.url}/api/audit/users${query}`, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("GET /api/audit/users", () => {
  it("offers every user the log knows, in order, searched by part of the id in any case, bounded", async () => {
    // In the index's order, which is the database's collation: compared as sets here.
    const all = await users("?limit=100");
    expect(all.body.more).toBe(false);
    expect([...(all.body.users as string[])].sort()).toEqual(
      ["Bob", "ada", "carol", "early-bird", ...FILLERS].sort(),
    );
    expect(await users("?q=EARLY")).toEqual({ status: 200, body: { users: ["early-bird"], more: false } });
    expect([...((await users("?q=o")).body.users as string[])].sort()).toEqual(["Bob", "carol"]);
    expect(await users("?q=x-&limit=5")).toEqual({
      status: 200,
      body: { users: FILLERS.slice(0, 5), more: true },
    });
    expect((await users("")).body).toMatchObject({ more: true });
    expect(((await users("")).body.users as string[]).length).toBe(20);
    expect(await users("?q=nobody-like-this")).toEqual({ status: 200, body: { users: [], more: false } });
  });

  it("refuses bad input with a 400 and non-admins with a 403", async () => {
    for (const query of [
      "?limit=0",
      "?limit=101",
      "?limit=ten",
      "?q=%00",
      `?q=${"a".repeat(257)}`,
      "?user=x",
    ]) {
      const answer = await users(query);
      expect(answer.status, query).toBe(400);
      expect(answer.body).toMatchObject({ error: { code: "validation_failed" } });
    }
    const support = await users("", identity("sam", "support-desk"));
    expect(support.status).toBe(403);
    expect(support.body).toMatchObject({ error: { code: "forbidden_by_role" } });
  });

  it("is a read of the log, audited like the others", async () => {
    await users("?q=carol");
    const response = await fetch(`${server.url}/api/audit?event=audit_read&user=ada&limit=500`, {
      headers: ADMIN,
    });
    const { rows } = (await response.json()) as { rows: { details: Record<string, unknown> | null }[] };
    expect(rows.some((row) => row.details?.users === "carol")).toBe(true);
  });
});
