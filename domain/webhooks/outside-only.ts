// Webhooks go outside only: a delivery to a loopback, private, link-local, unspecified or
// multicast address would let whoever adds a webhook probe the hub's own machine and network (Quorum's
// API, the embedded Postgres). The address is checked where the socket gets it, after DNS: a name that
// resolves inward is refused as surely as a literal `127.1` (WHATWG's URL parser turns `2130706433`,
// `127.1` and `0x7f.1` into 127.0.0.1 first). Redirects are never followed (deliver.ts), so there is no
// second address to check. QUORUM_WEBHOOK_ALLOW_PRIVATE=1 lets a hub deliver to its own network.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";

// Two lists: node's BlockList checks an IPv4 address against IPv6 rules too (as ::ffff:a.b.c.d), so the
// rule refusing IPv4-mapped IPv6 addresses would match every IPv4 address in a shared one.
const INWARD_V4 = new BlockList();
const INWARD_V6 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  INWARD_V4.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  // IPv4-mapped addresses: a public receiver never needs one.
  ["::ffff:0:0", 96],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  INWARD_V6.addSubnet(network, prefix, "ipv6");
}

/** Whether an IP address points into this machine or its private network (anything unreadable counts). */
export function isInwardAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return family === 4 ? INWARD_V4.check(address, "ipv4") : INWARD_V6.check(address, "ipv6");
}

/** Thrown (through the socket) when a webhook's host resolves inward. */
export class InwardAddress extends Error {
  readonly code = "QUORUM_INWARD_ADDRESS";
}

/** The literal IP of a URL's host, brackets dropped, or null for a name. */
export function literalAddressOf(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return isIP(host) ? host : null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for http.request: resolves as usual, and fails the connection if any address is inward. */
export function outsideOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const inward = addresses.find((a) => isInwardAddress(a.address));
    if (inward || addresses.length === 0) return callback(new InwardAddress(`${hostname} resolves to an address inside this network`), []);
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
}
