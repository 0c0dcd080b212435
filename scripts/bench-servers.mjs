// @ts-check
// What the benches (scripts/bench.ts, scripts/bench-ab.mjs) do with the servers they start: wait until one
// answers, read a process's CPU, and open a session that can call the balance proxy.
import { readFileSync } from "node:fs";

export const BENCH_CARD = { card_number: "6006491000000001", location_id: "bench-store" };

/**
 * Resolves once `url` answers at all; rejects when `child` exits first or after `seconds`.
 * @param {string} url
 * @param {import("node:child_process").ChildProcess} child
 * @param {number} [seconds]
 */
export async function waitFor(url, child, seconds = 60) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with code ${child.exitCode}`);
    try {
      await (await fetch(url)).arrayBuffer();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer within ${seconds} s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/**
 * CPU seconds used so far by a process and its descendants (Linux /proc; 0 elsewhere).
 * @param {number | undefined} pid
 * @returns {number}
 */
export function cpuSeconds(pid) {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    return ticks / 100 + children.reduce((sum, child) => sum + cpuSeconds(Number(child)), 0);
  } catch {
    return 0;
  }
}

/**
 * A session on the console at `consoleUrl` holding `credentials`, `environment` and a token, proven by one
 * Balance Inquiry: its cookie.
 * @param {string} consoleUrl
 * @param {object} credentials
 * @param {string} environment
 * @param {Record<string, string>} [identity] headers naming the user (AUTH_MODE=proxy)
 * @returns {Promise<string>}
 */
export async function sessionCookie(consoleUrl, credentials, environment, identity = {}) {
  const headers = { "content-type": "application/json", origin: consoleUrl, ...identity };
  let cookie = "";
  /** @param {string} method @param {string} urlPath @param {unknown} body */
  const send = async (method, urlPath, body) => {
    const response = await fetch(`${consoleUrl}${urlPath}`, {
      method,
      headers: cookie ? { ...headers, cookie } : headers,
      body: JSON.stringify(body),
    });
    cookie = response.headers.getSetCookie()[0]?.split(";")[0] ?? cookie;
    if (response.status !== 200)
      throw new Error(`${method} ${urlPath}: ${response.status} ${await response.text()}`);
    return /** @type {{ response?: { status?: number } }} */ (await response.json());
  };
  await send("PUT", "/api/session/credentials", credentials);
  await send("PUT", "/api/session/environment", { environment });
  await send("POST", "/api/token", {});
  const probe = await send("POST", "/api/inquiries/balance", BENCH_CARD);
  if (probe.response?.status !== 200)
    throw new Error(`the balance proxy does not work: ${JSON.stringify(probe)}`);
  return cookie;
}
