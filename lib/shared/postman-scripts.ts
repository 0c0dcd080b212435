/**
 * Postman sandbox scripts shared by the console's collection (lib/server/postman) and the history export
 * (lib/shared/run-export): plain ES2017 against the `pm` API, run inside Postman or newman, never here.
 */

/**
 * Collection level, before every request: a cached token, renewed a minute before it expires. Without
 * credentials no request is sent, and the run fails once saying so.
 */
export const TOKEN_PRE_REQUEST = String.raw`
(function () {
const authUrl = pm.variables.get("authUrl");
const clientId = pm.variables.get("client_id");
const clientSecret = pm.variables.get("client_secret");
const owner = authUrl + " " + clientId;
const cached = pm.collectionVariables.get("accessToken");
const expiresAt = Number(pm.collectionVariables.get("accessTokenExpiresAt") || 0);
if (cached && pm.collectionVariables.get("accessTokenFor") === owner && Date.now() < expiresAt - 60000) return;
if (!clientId || !clientSecret) {
  // Reported once, as one failed check, and nothing is sent: not every request's assertions failing on a 401.
  if (!pm.variables.get("credentialsMissingReported")) {
    pm.collectionVariables.set("credentialsMissingReported", "yes");
    pm.test("client_id and client_secret are set", function () {
      throw new Error("Set client_id and client_secret (collection or environment variables): no request was sent.");
    });
  }
  pm.execution.skipRequest();
  return;
}
if (pm.info.requestName === "Request a token") return;
pm.sendRequest({
  url: authUrl + "/reporting/v1/auth/token",
  method: "POST",
  header: { "Content-Type": "application/json; charset=utf-8", Accept: "application/json" },
  body: { mode: "raw", raw: JSON.stringify({ client_id: clientId, client_secret: clientSecret, grant_type: "client_credentials" }) },
}, function (error, response) {
  if (error) throw error;
  if (response.code !== 200) throw new Error("The token request answered " + response.code + ": " + response.text());
  const attributes = response.json().data.attributes;
  pm.collectionVariables.set("accessToken", attributes.access_token);
  pm.collectionVariables.set("accessTokenExpiresAt", String(Date.now() + attributes.expires_in * 1000));
  pm.collectionVariables.set("accessTokenFor", owner);
});
})();
`;

/** A fresh X-Request-Id for each send, kept so that the lookup can find the transaction. */
export const FRESH_REQUEST_ID = String.raw`
const requestId = pm.variables.replaceIn("{{$guid}}");
pm.collectionVariables.set("requestId", requestId);
pm.request.headers.upsert({ key: "X-Request-Id", value: requestId });
`;
