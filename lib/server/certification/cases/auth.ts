/** AUTH: the upstream refuses calls without a valid token (401) or without the scope (403) (API specification §5, §7). */
import "server-only";
import { tamperToken, type CaseContext } from "../context";
import type { CertificationClient } from "../profile";
import type { CaseDefinition } from "./case-definition";

/** A fresh token of `client` for the case, or undefined with a failed check when the endpoint issued none. */
async function grantFor(context: CaseContext, client: CertificationClient) {
  const { grant, record } = await context.requestToken(client);
  if (!grant) {
    context.checks.add("a token for the case", "a token", "the token endpoint issued none", false, [
      record.id,
    ]);
  }
  return grant;
}

const noToken: CaseDefinition = {
  id: "AUTH-01",
  title: "A call without a token is refused with 401",
  spec_sections: ["4.2", "5.3", "7"],
  async run(context) {
    const call = await context.balance({ token: null });
    context.checks.status("Balance Inquiry without Authorization", 401, call.status, [call.record.id]);
  },
};

const tamperedToken: CaseDefinition = {
  id: "AUTH-02",
  title: "A call with a tampered token is refused with 401",
  spec_sections: ["4.2", "7"],
  async run(context) {
    const token = await context.sessionToken();
    const call = await context.balance({ token: tamperToken(token.accessToken) });
    context.checks.status("Balance Inquiry with one signature character changed", 401, call.status, [
      call.record.id,
    ]);
  },
};

const expiredToken: CaseDefinition = {
  id: "AUTH-03",
  title: "A call with an expired token is refused with 401",
  spec_sections: ["5.4", "7"],
  async run(context) {
    const client = context.profile.shortLived ?? context.profile.primary;
    const { settings } = context;
    // Before any request: the lifetime is known only from a token, so a too-long wait is judged after it.
    const grant = await grantFor(context, client);
    if (!grant) return;
    const waitMs = grant.expiresIn * 1000 + 1500;
    if (waitMs > settings.maxExpiryWaitMs) {
      context.notApplicable(
        `Needs waiting ${Math.ceil(waitMs / 1000)} s for a token of ${client.clientId} to expire; this run allows ` +
          `${Math.round(settings.maxExpiryWaitMs / 1000)} s (certify --max-expiry-wait SECONDS; use a short-lived client).`,
      );
    }
    await context.wait("token_expiry", waitMs);
    const call = await context.balance({ token: grant.accessToken });
    context.checks.status(
      `Balance Inquiry ${Math.ceil(waitMs / 1000)} s after the token was issued (expires_in ${grant.expiresIn})`,
      401,
      call.status,
      [call.record.id],
    );
  },
};

const missingScope: CaseDefinition = {
  id: "AUTH-04",
  title: "A token without the needed scope is refused with 403",
  spec_sections: ["5.5", "7"],
  async run(context) {
    const client = context.profile.withoutScope;
    if (!client) {
      return context.notApplicable(
        "Needs a client whose token lacks read:transactions (without_scope in the profile; on the embedded " +
          "sandbox demo-reports-only).",
      );
    }
    const grant = await grantFor(context, client);
    if (!grant) return;
    const call = await context.balance({ token: grant.accessToken });
    context.checks.status(`Balance Inquiry with a token of scope "${grant.scope}"`, 403, call.status, [
      call.record.id,
    ]);
  },
};

export const AUTH_CASES = [noToken, tamperedToken, expiredToken, missingScope];
