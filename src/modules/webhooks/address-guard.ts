/**
 * SSRF guard of webhook deliveries (D82; docs/front-ends.md "Webhooks"): which IP addresses a
 * webhook may connect to while WEBHOOK_ALLOW_PRIVATE is off (the default). The rule is an allow
 * list: public unicast addresses only. Refused:
 *
 * - IPv4: every special-purpose range (IANA registry, via ipaddr.js): unspecified 0/8, loopback
 *   127/8, private 10/8, 172.16/12, 192.168/16, CGNAT 100.64/10, link-local 169.254/16,
 *   multicast 224/4, broadcast, reserved 240/4, documentation and benchmarking ranges, 192.0.0/24…
 * - IPv6: anything outside global unicast 2000::/3 (unspecified, loopback, link-local fe80::/10,
 *   site-local fec0::/10, unique-local fc00::/7, multicast ff00::/8, discard 100::/64…) and the
 *   special ranges inside it (documentation 2001:db8::/32 and 3fff::/20, benchmarking…).
 * - IPv6 carrying an IPv4 address is judged by that address: IPv4-mapped ::ffff:a.b.c.d,
 *   IPv4-translated ::ffff:0:a.b.c.d and NAT64 64:ff9b::/96 pass only with a public IPv4
 *   address inside (an IPv6-only host behind DNS64 reaches public receivers that way);
 *   IPv4-compatible ::a.b.c.d (deprecated), local-use NAT64 64:ff9b:1::/48 (its layout is the
 *   operator's choice), 6to4 2002::/16 and Teredo 2001::/32 (relayed to an IPv4 address a relay
 *   picks) are always refused.
 *
 * Only IP literals in their standard text form are classified (host names are resolved first;
 * URL hosts are normalized by the WHATWG URL parser, which turns `127.1`, `0x7f.1` or
 * `2130706433` into `127.0.0.1`).
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Words for ipaddr.js range names; a range it adds later is refused under its own name. */
const V4_REASONS: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'private (CGNAT, shared address space)',
  private: 'private',
  reserved: 'reserved',
  as112: 'reserved',
  amt: 'reserved',
};
const V6_REASONS: Record<string, string> = {
  unspecified: 'unspecified',
  linkLocal: 'link-local',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  '6to4': '6to4 (IPv4 in IPv6, relayed)',
  teredo: 'Teredo (IPv4 in IPv6, relayed)',
};

function v4Reason(address: ipaddr.IPv4): string | null {
  const range = address.range();
  return range === 'unicast' ? null : (V4_REASONS[range] ?? `reserved (${range})`);
}

/** The IPv4 address in the last 32 bits of `parts`. */
function lastV4(parts: number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4([parts[6] >> 8, parts[6] & 0xff, parts[7] >> 8, parts[7] & 0xff]);
}

/** The refusal of an IPv6 address that carries `v4`: its reason, or `fallback` when it is public. */
function embedded(v4: ipaddr.IPv4, fallback: string | null): string | null {
  const reason = v4Reason(v4);
  return reason ? `${reason} (IPv4 in IPv6)` : fallback;
}

function v6Reason(address: ipaddr.IPv6): string | null {
  const parts = address.parts;
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return embedded(lastV4(parts), null);
  if (range === 'rfc6052') {
    // 64:ff9b::/96 (well-known prefix) carries the address in its last 32 bits; the local-use
    // 64:ff9b:1::/48 places it where the operator chose, so it cannot be read.
    if (parts[2] === 0 && parts[3] === 0 && parts[4] === 0 && parts[5] === 0) return embedded(lastV4(parts), null);
    return 'reserved (local-use NAT64)';
  }
  if (range === 'unspecified' || range === 'loopback') return V6_REASONS[range];
  if (parts.slice(0, 6).every((p) => p === 0)) return embedded(lastV4(parts), 'reserved (IPv4-compatible IPv6, deprecated)');
  if (range !== 'unicast') return V6_REASONS[range] ?? 'reserved';
  // Global unicast is 2000::/3; the rest of the space is unassigned or special.
  return (parts[0] & 0xe000) === 0x2000 ? null : 'reserved';
}

/**
 * Why `address` (an IPv4 or IPv6 literal, an IPv6 zone id allowed) may not be a webhook target,
 * e.g. `loopback` or `private (IPv4 in IPv6)`, or null when it is a public address. Anything that
 * is not an IP literal in standard form is refused as `not an IP address`.
 */
export function blockedReason(address: string): string | null {
  const bare = address.split('%')[0];
  const family = isIP(bare);
  if (family === 4) return v4Reason(ipaddr.IPv4.parse(bare));
  if (family !== 6) return 'not an IP address';
  // ipaddr.js reads `::a.b.c.d` as IPv4-mapped; the dotted tail is rewritten as two hex groups
  // so the address is classified as written.
  const hex = bare.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a: string, b: string, c: string, d: string) => {
    const [w, x, y, z] = [a, b, c, d].map(Number);
    return `${((w << 8) | x).toString(16)}:${((y << 8) | z).toString(16)}`;
  });
  return v6Reason(ipaddr.IPv6.parse(hex));
}
