/**
 * SSRF guard of webhook deliveries (D82): which IP addresses a webhook may reach. Refused unless
 * WEBHOOK_ALLOW_PRIVATE: unspecified, loopback, private (RFC 1918, CGNAT 100.64/10), link-local,
 * unique-local (fc00::/7), site-local (fec0::/10), multicast, broadcast and reserved ranges, and
 * the same addresses written as IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) or
 * NAT64 (64:ff9b::/96) IPv6. The check is applied to every address a host name resolves to and
 * again to the address the socket actually connected to (DNS rebinding).
 */
import { isIP } from 'node:net';

type V4Rule = [base: number, bits: number, reason: string];

const V4_RULES: V4Rule[] = [
  [ip4('0.0.0.0'), 8, 'unspecified'],
  [ip4('10.0.0.0'), 8, 'private'],
  [ip4('100.64.0.0'), 10, 'private (shared address space)'],
  [ip4('127.0.0.0'), 8, 'loopback'],
  [ip4('169.254.0.0'), 16, 'link-local'],
  [ip4('172.16.0.0'), 12, 'private'],
  [ip4('192.0.0.0'), 24, 'reserved'],
  [ip4('192.168.0.0'), 16, 'private'],
  [ip4('198.18.0.0'), 15, 'reserved'],
  [ip4('224.0.0.0'), 4, 'multicast'],
  [ip4('240.0.0.0'), 4, 'reserved'],
];

function ip4(text: string): number {
  return text.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function v4Reason(n: number): string | null {
  for (const [base, bits, reason] of V4_RULES) {
    const size = 2 ** (32 - bits);
    if (n >= base && n < base + size) return reason;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped, embedded dotted quad expanded). */
function ip6Groups(text: string): number[] {
  let s = text.split('%')[0].toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const n = ip4(dotted[1]);
    s = s.slice(0, -dotted[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? s.split('::') : [s, null];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === null ? [] : Array<string>(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16));
}

function v6Reason(groups: number[]): string | null {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups;
  const zeroTo = (i: number) => groups.slice(0, i).every((g) => g === 0);
  if (zeroTo(8)) return 'unspecified';
  if (zeroTo(7) && g7 === 1) return 'loopback';
  const embedded = (g6 << 16) + g7;
  // IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96) and NAT64 (64:ff9b::/96) carry an IPv4 address.
  if ((zeroTo(5) && g5 === 0xffff) || zeroTo(6) || (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)) {
    const reason = v4Reason(embedded >>> 0);
    return reason ? `${reason} (IPv4 in IPv6)` : null;
  }
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'site-local';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  return null;
}

/**
 * Why `address` (an IPv4 or IPv6 literal) may not be a webhook target, e.g. `loopback`, or null
 * when it is a public address. Anything that is not an IP literal is refused as `not an IP address`.
 */
export function blockedReason(address: string): string | null {
  const family = isIP(address.split('%')[0]);
  if (family === 4) return v4Reason(ip4(address) >>> 0);
  if (family === 6) return v6Reason(ip6Groups(address));
  return 'not an IP address';
}
