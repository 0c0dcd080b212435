// A TCP port free on 127.0.0.1 right now, for the servers a script or a test starts.
//
// A caller binds the port seconds later (a console listens only once Next is prepared). A port the kernel picked
// for `listen(0)` could in the meantime be picked again for any other `listen(0)` on the machine (a sandbox, a
// mock upstream): then two servers want it and the late one cannot listen. So ports come from below the
// kernel's own range (ip_local_port_range), which it never hands out by itself, each process counting through a
// block of its own (Vitest's workers run at once: VITEST_POOL_ID tells them apart), so that two callers of this
// function do not pick the same port either. Where the range cannot be read, the kernel picks.
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

const BLOCKS = 16;
const LOWEST = 10_000;
/** @type {{ first: number; size: number; next: number } | null | undefined} */
let block;

/** @returns {{ first: number; size: number; next: number } | null} */
function ownBlock() {
  if (block !== undefined) return block;
  let kernelLow = 0;
  try {
    kernelLow = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
  } catch {
    // Not Linux: the kernel picks.
  }
  const size = Math.floor((kernelLow - LOWEST) / BLOCKS);
  if (!Number.isInteger(size) || size < 64) return (block = null);
  const index = Number(process.env.VITEST_POOL_ID ?? 0) % BLOCKS;
  const first = LOWEST + index * size;
  return (block = { first, size, next: Math.floor(Math.random() * size) });
}

/** @param {number} port @returns {Promise<number | null>} the port when it could be bound, else null */
function tryListen(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(null));
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const bound = typeof address === "object" && address ? address.port : null;
      server.close(() => resolve(bound));
    });
  });
}

/** @returns {Promise<number>} */
export async function freePort() {
  const own = ownBlock();
  for (let tries = 0; own && tries < own.size; tries += 1) {
    const port = own.first + (own.next++ % own.size);
    if ((await tryListen(port)) !== null) return port;
  }
  const picked = await tryListen(0);
  if (picked === null) throw new Error("no free TCP port on 127.0.0.1");
  return picked;
}
