import dns from 'node:dns/promises';
import net from 'node:net';

// Where a webhook may be sent (docs/webhooks.md, "Private addresses"): a name is resolved before
// connecting and every address it has is checked; the connection then goes to that checked
// address (deliver.ts pins it), so a name cannot answer a public address to the check and a
// private one to the connection. Private, loopback, link-local, unique-local, multicast and
// unspecified addresses are refused unless the operator allows them (WEBHOOK_ALLOW_PRIVATE=1).

/** Why a target is refused: the caller's 400, or a delivery's error. */
export class TargetRefused extends Error {}

const BLOCKED = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network, unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['64:ff9b::', 96], // NAT64: may reach any IPv4 address
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: may reach any IPv4 address
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv4-mapped IPv6 address (::ffff:a.b.c.d, ::ffff:7f00:1) stands for, else the address. */
function unmapped(address: string): string {
  if (net.isIPv6(address)) {
    const canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
    const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(canonical);
    if (dotted) return dotted[1];
    const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
    if (hex) {
      const [high, low] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
      return [high >> 8, high & 255, low >> 8, low & 255].join('.');
    }
    return canonical;
  }
  return address;
}

/** Whether an address is private, loopback, link-local, unique-local, multicast or unspecified. */
export function isPrivateAddress(address: string): boolean {
  const plain = unmapped(address);
  const family = net.isIPv4(plain) ? 'ipv4' : net.isIPv6(plain) ? 'ipv6' : null;
  return family === null || BLOCKED.check(plain, family);
}

/** Which addresses a delivery may connect to. */
export type AddressRule = (address: string) => boolean;
export const addressRule =
  (allowPrivate: boolean): AddressRule =>
  (address) =>
    allowPrivate || !isPrivateAddress(address);

export interface Resolved {
  address: string;
  family: 4 | 6;
}

/** A URL's host as an address literal (brackets off), or null when it is a name. */
const literal = (url: URL): string | null => {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return net.isIP(host) ? host : null;
};

/** The address to connect to for the URL: every address of its host checked, the first one returned. */
export async function checkedAddress(url: URL, allowed: AddressRule): Promise<Resolved> {
  const direct = literal(url);
  const found = direct
    ? [{ address: direct, family: net.isIPv4(direct) ? 4 : 6 }]
    : await dns.lookup(url.hostname, { all: true, verbatim: true }).catch((error: NodeJS.ErrnoException) => {
        throw new TargetRefused(`${url.hostname} could not be resolved (${error.code ?? 'no answer'})`);
      });
  if (!found.length) throw new TargetRefused(`${url.hostname} has no address`);
  const refused = found.find((entry) => !allowed(entry.address));
  if (refused) throw new TargetRefused(`${url.hostname} resolves to ${refused.address}, a private address: refused (WEBHOOK_ALLOW_PRIVATE is off)`);
  return { address: found[0].address, family: found[0].family === 6 ? 6 : 4 };
}

/** The endpoint as a URL, when its form is one a webhook may have: https (http too where private targets are allowed), no user or password. */
export function endpointUrl(text: string, allowHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetRefused('url must be an absolute address (https://…)');
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) throw new TargetRefused('url must start with https://');
  if (url.username || url.password) throw new TargetRefused('url must not carry a user name or password');
  return url;
}
