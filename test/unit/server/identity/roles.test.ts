import { describe, expect, it } from "vitest";
import { ENVIRONMENTS, type EnvironmentName } from "@/lib/shared/contracts";
import { assertAllowed, requireUser } from "@/lib/server/identity/enforce";
import { describeAllows, meResponse, meResponseSchema } from "@/lib/server/identity/me";
import { userStorageKey } from "@/lib/server/identity/user-key";
import { LOCAL_USER } from "@/lib/server/identity";
import {
  ENVIRONMENT_ACTIONS,
  GLOBAL_ACTIONS,
  ROLES,
  can,
  canSomewhere,
  cardNumberDisplay,
  maskCardNumberForRoles,
  needsConfirmation,
  rolesFromGroups,
  type EnvironmentAction,
  type Role,
} from "@/lib/server/identity/roles";
import { ApiError } from "@/lib/server/util/errors";

/** docs/design.md §6 written out cell by cell, independently of the module's own table. Y = allowed. */
const EXPECTED: Record<Role, Record<EnvironmentName, Record<EnvironmentAction, boolean>>> = (() => {
  const row = (allowed: EnvironmentAction[]) =>
    Object.fromEntries(ENVIRONMENT_ACTIONS.map((action) => [action, allowed.includes(action)])) as Record<
      EnvironmentAction,
      boolean
    >;
  const all = row([...ENVIRONMENT_ACTIONS]);
  const supportDesk = row(["balance_inquiry", "transaction_lookup", "support_lookup", "support_batch"]);
  return {
    support: { embedded: supportDesk, sandbox: supportDesk, production: supportDesk },
    engineer: {
      embedded: all,
      sandbox: all,
      production: row([
        "balance_inquiry",
        "transaction_lookup",
        "support_lookup",
        "support_batch",
        "raw_exchange",
        "copy_as_code",
        "token_details",
      ]),
    },
    tester: { embedded: all, sandbox: all, production: all },
    admin: { embedded: all, sandbox: all, production: all },
  };
})();

/** Every subset of the four roles, the empty one included. */
const ROLE_SETS: Role[][] = Array.from({ length: 1 << ROLES.length }, (_, mask) =>
  ROLES.filter((_role, index) => mask & (1 << index)),
);

describe("role matrix", () => {
  for (const roles of ROLE_SETS) {
    const label = roles.length ? roles.join("+") : "(no role)";
    it(`${label}: every action in every environment is the union of its roles' cells`, () => {
      for (const environment of ENVIRONMENTS) {
        for (const action of ENVIRONMENT_ACTIONS) {
          const expected = roles.some((role) => EXPECTED[role][environment][action]);
          expect(can(roles, action, environment), `${action} in ${environment}`).toBe(expected);
          if (expected) expect(() => assertAllowed(roles, action, environment)).not.toThrow();
          else expect(() => assertAllowed(roles, action, environment)).toThrow(ApiError);
        }
      }
      for (const action of GLOBAL_ACTIONS) {
        const monitors =
          action === "monitor_read" ? ["engineer", "tester"] : action === "monitor_write" ? ["tester"] : [];
        expect(can(roles, action), action).toBe(
          roles.some((role) => role === "admin" || monitors.includes(role)),
        );
      }
    });
  }

  it("support: no raw exchange, copy as code, token details, token request or Gift Balance Inquiry anywhere", () => {
    for (const environment of ENVIRONMENTS) {
      for (const action of [
        "raw_exchange",
        "copy_as_code",
        "token_details",
        "token_request",
        "gift_balance_inquiry",
        "certification_run",
      ] as const) {
        expect(can(["support"], action, environment)).toBe(false);
      }
      expect(can(["support"], "support_batch", environment)).toBe(true);
    }
  });

  it("engineer in production: no Gift Balance Inquiry, certification run or token request", () => {
    expect(can(["engineer"], "gift_balance_inquiry", "production")).toBe(false);
    expect(can(["engineer"], "certification_run", "production")).toBe(false);
    expect(can(["engineer"], "token_request", "production")).toBe(false);
    expect(can(["engineer"], "balance_inquiry", "production")).toBe(true);
    expect(can(["engineer"], "gift_balance_inquiry", "sandbox")).toBe(true);
  });

  it("only admin reads and exports the audit log", () => {
    expect(ROLES.filter((role) => can([role], "audit_read"))).toEqual(["admin"]);
    expect(ROLES.filter((role) => can([role], "audit_export"))).toEqual(["admin"]);
  });

  it("the local user of AUTH_MODE=none holds every role and may do everything", () => {
    expect([...LOCAL_USER.roles]).toEqual([...ROLES]);
    for (const environment of ENVIRONMENTS)
      for (const action of ENVIRONMENT_ACTIONS) expect(can(LOCAL_USER.roles, action, environment)).toBe(true);
  });

  it("canSomewhere answers for page navigation", () => {
    expect(canSomewhere(["support"], "support_lookup")).toBe(true);
    expect(canSomewhere(["support"], "token_details")).toBe(false);
    expect(canSomewhere(["engineer"], "certification_run")).toBe(true);
    expect(canSomewhere(["tester"], "audit_read")).toBe(false);
    expect(canSomewhere([], "balance_inquiry")).toBe(false);
  });

  it("a Gift Balance Inquiry in production asks for confirmation; nothing else does", () => {
    for (const environment of ENVIRONMENTS)
      for (const action of ENVIRONMENT_ACTIONS)
        expect(needsConfirmation(action, environment)).toBe(
          environment === "production" && action === "gift_balance_inquiry",
        );
  });
});

describe("card number display", () => {
  it("support alone sees last 4; any other role held widens it to first 6 + last 4", () => {
    for (const roles of ROLE_SETS) {
      const expected = roles.some((role) => role !== "support") ? "first6_last4" : "last4";
      expect(cardNumberDisplay(roles), roles.join("+")).toBe(expected);
    }
    expect(maskCardNumberForRoles("6006491000000001", ["support"])).toBe("************0001");
    expect(maskCardNumberForRoles("6006491000000001", ["support", "engineer"])).toBe("600649******0001");
    expect(maskCardNumberForRoles("not-a-card", ["support"])).not.toContain("card");
  });
});

describe("rolesFromGroups", () => {
  const roleGroups = {
    admin: ["console-admins"],
    tester: ["certification"],
    engineer: ["developers", "platform"],
    support: ["support-desk"],
  };

  it("maps groups to roles, in table order, with the union for several groups", () => {
    expect(rolesFromGroups(["console-admins"], roleGroups)).toEqual(["admin"]);
    expect(rolesFromGroups(["platform", "support-desk"], roleGroups)).toEqual(["support", "engineer"]);
    expect(rolesFromGroups(["certification", "developers", "console-admins"], roleGroups)).toEqual([
      "engineer",
      "tester",
      "admin",
    ]);
  });

  it("no matching group is no role, not an error; matching is exact and case-sensitive", () => {
    expect(rolesFromGroups([], roleGroups)).toEqual([]);
    expect(rolesFromGroups(["marketing"], roleGroups)).toEqual([]);
    expect(rolesFromGroups(["Console-Admins", "console-admins "], roleGroups)).toEqual([]);
    expect(rolesFromGroups(["console-admins"], {})).toEqual([]);
  });
});

describe("assertAllowed and requireUser", () => {
  it("a refusal is 403 forbidden_by_role naming the roles that would allow it", () => {
    let error: unknown;
    try {
      assertAllowed(["support"], "gift_balance_inquiry", "sandbox");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(403);
    expect(apiError.code).toBe("forbidden_by_role");
    expect(apiError.message).toContain("support");
    expect(apiError.message).toBe(
      "Your role (support) does not allow a Gift Balance Inquiry in sandbox; that needs the role engineer, tester or admin.",
    );
    expect(apiError.details).toMatchObject({ allowed_roles: ["engineer", "tester", "admin"] });
  });

  it("engineer refused a production Gift Balance Inquiry is told tester or admin", () => {
    expect(() => assertAllowed(["engineer"], "gift_balance_inquiry", "production")).toThrow(
      /does not allow a Gift Balance Inquiry in production; that needs the role tester or admin\./,
    );
    expect(() => assertAllowed([], "audit_read")).toThrow(
      /no console role; reading the audit log needs the role admin/,
    );
  });

  it("no user is 401 not_signed_in", () => {
    expect(() => requireUser(null)).toThrow(expect.objectContaining({ status: 401, code: "not_signed_in" }));
    const user = { id: "u", name: "U", groups: [], roles: [] };
    expect(requireUser(user)).toBe(user);
  });
});

describe("GET /api/me body", () => {
  it("signed out is exactly {user: null}", () => {
    const body = meResponse(null, "oidc", ["embedded"], userStorageKey);
    expect(body).toEqual({ user: null });
    expect(meResponseSchema.parse(body)).toEqual(body);
  });

  it("lists per configured environment what the roles allow, and validates against the shared schema", () => {
    const body = meResponse(
      { id: "sam", name: "Sam", groups: ["support-desk"], roles: ["support"] },
      "oidc",
      ["embedded", "production"],
      userStorageKey,
    );
    expect(meResponseSchema.parse(body)).toEqual(body);
    expect(body).toEqual({
      user: {
        id: "sam",
        name: "Sam",
        roles: ["support"],
        signed_in_with: "oidc",
        key: userStorageKey("oidc", "sam"),
      },
      allows: {
        environments: {
          embedded: ["balance_inquiry", "transaction_lookup", "support_lookup", "support_batch"],
          production: ["balance_inquiry", "transaction_lookup", "support_lookup", "support_batch"],
        },
        global: [],
        confirm: { embedded: [], production: [] },
        card_number_display: "last4",
      },
    });
  });

  it("a tester must confirm a production Gift Balance Inquiry; an admin also has the audit log", () => {
    expect(describeAllows(["tester"], ["production"]).confirm).toEqual({
      production: ["gift_balance_inquiry"],
    });
    expect(describeAllows(["admin"], ["embedded"]).global).toEqual([
      "audit_read",
      "audit_export",
      "session_admin",
      "monitor_read",
      "monitor_write",
    ]);
    expect(describeAllows([], ["embedded"]).environments).toEqual({ embedded: [] });
  });

  it("the schema refuses unknown roles and extra fields", () => {
    expect(
      meResponseSchema.safeParse({
        user: { id: "x", name: "x", roles: ["root"], signed_in_with: "oidc" },
        allows: {},
      }).success,
    ).toBe(false);
    expect(meResponseSchema.safeParse({ user: null, allows: {} }).success).toBe(false);
  });
});
