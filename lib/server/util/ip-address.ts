/**
 * IP addresses and CIDR ranges: which hosts are loopback, and whether a peer is one of the trusted proxies.
 * Node's BlockList does the matching (IPv4, IPv6, and IPv4-mapped IPv6 such as ::ffff:127.0.0.1).
 */
import { BlockList, isIP } from "node:net";

/** `[::1]` → `::1`; `::ffff:10.0.0.1` → `10.0.0.1` (how Node reports an IPv4 peer on a dual-stack socket). */
export function normalizeAddress(address: string): string {
  const bare = address.trim().replace(/^\[(.*)\]$/, "$1");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  return (mapped?.[1] ?? bare).toLowerCase();
}

/** localhost names, 127.0.0.0/8 and ::1. */
export function isLoopbackHost(host: string): boolean {
  const name = normalizeAddress(host);
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (isIP(name) === 4) return name.startsWith("127.");
  return name === "::1";
}

export interface CidrList {
  /** The ranges as written, for messages and logs. */
  readonly ranges: readonly string[];
  has(address: string): boolean;
}

/** Parses `10.0.0.0/8, 192.168.1.7, ::1/128`; throws an Error naming the bad entry. */
export function parseCidrList(text: string): CidrList {
  const list = new BlockList();
  const ranges: string[] = [];
  for (const entry of text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [rawAddress = "", prefixText] = entry.split("/");
    const address = normalizeAddress(rawAddress);
    const family = isIP(address);
    if (family === 0) throw new Error(`${JSON.stringify(entry)} is not an IP address or CIDR range`);
    const maxPrefix = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
    if (!/^\d+$/.test(prefixText ?? String(maxPrefix)) || prefix > maxPrefix) {
      throw new Error(`${JSON.stringify(entry)} has a bad prefix length (0 to ${maxPrefix})`);
    }
    list.addSubnet(address, prefix, family === 4 ? "ipv4" : "ipv6");
    ranges.push(entry);
  }
  return {
    ranges,
    has(candidate: string) {
      const address = normalizeAddress(candidate);
      const family = isIP(address);
      if (family === 0 || ranges.length === 0) return false;
      return list.check(address, family === 4 ? "ipv4" : "ipv6");
    },
  };
}
