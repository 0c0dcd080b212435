// @ts-check
/**
 * The bench's floor, target (p): the least a Node server can do to proxy a balance inquiry. A plain `http`
 * server reads the body ({card_number, location_id}, as the console's route takes it), calls the standalone
 * sandbox's Balance Inquiry through an undici Pool with a token fetched once (again after a 401), and writes the
 * sandbox's JSON back. No session, no validation, no audit, no log line: what the console spends above this
 * is its own.
 *
 * Environment: PORT (listen on 127.0.0.1), SANDBOX_URL, CLIENT_ID, CLIENT_SECRET.
 */
import { createServer } from "node:http";
import { Pool } from "undici";

const { PORT, SANDBOX_URL, CLIENT_ID, CLIENT_SECRET } = process.env;
if (!PORT || !SANDBOX_URL || !CLIENT_ID || !CLIENT_SECRET) {
  console.error("bench-bare-proxy: PORT, SANDBOX_URL, CLIENT_ID and CLIENT_SECRET are required");
  process.exit(2);
}
// As many keep-alive connections as the console's pooled client may open to one upstream.
const pool = new Pool(SANDBOX_URL, { connections: 64 });
const JSON_HEADERS = { "content-type": "application/json" };

/** @returns {Promise<string>} */
async function fetchToken() {
  const { body } = await pool.request({
    method: "POST",
    path: "/reporting/v1/auth/token",
    headers: JSON_HEADERS,
    body: JSON.stringify({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      grant_type: "client_credentials",
    }),
  });
  const answer = /** @type {{ data: { attributes: { access_token: string } } }} */ (await body.json());
  return answer.data.attributes.access_token;
}

/** @type {Promise<string> | undefined} Fetched on the first call: the sandbox may start after this server. */
let token;

/** @param {{ card_number?: string, location_id?: string }} card */
async function balanceInquiry(card, retried = false) {
  const { statusCode, body } = await pool.request({
    method: "POST",
    path: "/transaction/v1/balance-inquiry",
    headers: { ...JSON_HEADERS, authorization: `Bearer ${await (token ??= fetchToken())}` },
    body: JSON.stringify({
      data: {
        entry_mode: "keyed",
        card_number: card.card_number,
        pin_mode: "none",
        originator: { location_id: card.location_id },
      },
    }),
  });
  const text = await body.text();
  if (statusCode === 401 && !retried) {
    token = undefined;
    return balanceInquiry(card, true);
  }
  return { statusCode, text };
}

const server = createServer(async (request, response) => {
  try {
    let raw = "";
    for await (const chunk of request) raw += chunk;
    const { statusCode, text } = await balanceInquiry(JSON.parse(raw));
    response.writeHead(statusCode, JSON_HEADERS).end(text);
  } catch (error) {
    token = undefined;
    response.writeHead(502, JSON_HEADERS).end(JSON.stringify({ error: String(error) }));
  }
});
server.listen(Number(PORT), "127.0.0.1");
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));
