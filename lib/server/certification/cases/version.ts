/** VER: versioning (API specification §9): the version in the paths, meta.version and jsonapi.version. */
import "server-only";
import type { CaseDefinition } from "./case-definition";
import { checkVersions } from "./token";

const versions: CaseDefinition = {
  id: "VER-01",
  title: "Versioned paths answer, and the token response carries meta.version and jsonapi.version",
  spec_sections: ["9", "4.1", "4.2"],
  async run(context) {
    const token = await context.sessionToken();
    const tokenResult = context.ledger.sessionTokenResult;
    const { urls } = context.env.client;
    const { checks } = context;
    checks.add(
      "token path",
      "/reporting/v1/ in the token address",
      urls.token,
      new URL(urls.token).pathname.includes("/reporting/v1/"),
    );
    checks.add(
      "balance paths",
      "/transaction/v1/ in both balance operations' addresses",
      `${urls.giftBalanceInquiry}, ${urls.balanceInquiry}`,
      [urls.giftBalanceInquiry, urls.balanceInquiry].every((url) =>
        new URL(url).pathname.includes("/transaction/v1/"),
      ),
    );
    const call = await context.balance({ token: token.accessToken });
    checks.add(
      "Balance Inquiry at its versioned path",
      "answered (not 404)",
      `HTTP ${call.status}`,
      call.status !== 404,
      [call.record.id],
    );
    if (tokenResult) {
      const ids = [tokenResult.record.id];
      checks.add(
        "token endpoint at its versioned path",
        "answered (not 404)",
        `HTTP ${tokenResult.status}`,
        tokenResult.status !== 404,
        ids,
      );
      checkVersions(checks, tokenResult.value, ids);
    }
  },
};

export const VERSION_CASES = [versions];
