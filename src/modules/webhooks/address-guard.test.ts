import { describe, expect, it } from 'vitest';
import { blockedReason } from './address-guard.js';

// Each row: an address and the start of the reason it is refused (null: a public address, allowed).
const TABLE: [address: string, reason: string | null][] = [
  // IPv4: special-purpose ranges (IANA registry).
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'private (CGNAT'],
  ['100.127.255.255', 'private (CGNAT'],
  ['169.254.169.254', 'link-local'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['192.88.99.1', 'reserved'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  // IPv4: public neighbours of those ranges.
  ['8.8.8.8', null],
  ['93.184.216.34', null],
  ['1.1.1.1', null],
  ['9.255.255.255', null],
  ['11.0.0.0', null],
  ['100.63.255.255', null],
  ['100.128.0.0', null],
  ['172.15.255.255', null],
  ['172.32.0.1', null],
  ['192.169.0.1', null],
  ['223.255.255.255', null],
  // IPv6 of its own.
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf::1', 'link-local'],
  ['fec0::1', 'site-local'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456::1', 'unique-local'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'multicast'],
  ['100::1', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['3fff::1', 'reserved'],
  ['2001:2::1', 'reserved'],
  ['5f00::1', 'reserved'],
  ['4000::1', 'reserved'],
  ['e000::1', 'reserved'],
  ['2606:4700::1111', null],
  ['2001:4860:4860::8888', null],
  ['2a00:1450:4001:81c::200e', null],
  // IPv6 carrying an IPv4 address: IPv4-mapped (::ffff:a.b.c.d) …
  ['::ffff:127.0.0.1', 'loopback (IPv4 in IPv6)'],
  ['::ffff:7f00:1', 'loopback (IPv4 in IPv6)'],
  ['::FFFF:7F00:0001', 'loopback (IPv4 in IPv6)'],
  ['::ffff:0.0.0.0', 'unspecified (IPv4 in IPv6)'],
  ['::ffff:10.0.0.1', 'private (IPv4 in IPv6)'],
  ['::ffff:a9fe:a9fe', 'link-local (IPv4 in IPv6)'],
  ['::ffff:192.168.0.1', 'private (IPv4 in IPv6)'],
  ['0:0:0:0:0:ffff:6440:1', 'private (CGNAT'],
  ['::ffff:8.8.8.8', null],
  // … IPv4-translated (::ffff:0:a.b.c.d, RFC 6145), the form that passed the former guard …
  ['::ffff:0:7f00:1', 'loopback (IPv4 in IPv6)'],
  ['::ffff:0:127.0.0.1', 'loopback (IPv4 in IPv6)'],
  ['::ffff:0:a00:1', 'private (IPv4 in IPv6)'],
  ['::ffff:0:808:808', null],
  // … IPv4-compatible (::a.b.c.d, deprecated: refused whatever it carries) …
  ['::127.0.0.1', 'loopback (IPv4 in IPv6)'],
  ['::7f00:1', 'loopback (IPv4 in IPv6)'],
  ['::10.0.0.1', 'private (IPv4 in IPv6)'],
  ['::8.8.8.8', 'reserved (IPv4-compatible'],
  // … NAT64 (64:ff9b::/96 well-known, 64:ff9b:1::/48 local-use) …
  ['64:ff9b::7f00:1', 'loopback (IPv4 in IPv6)'],
  ['64:ff9b::127.0.0.1', 'loopback (IPv4 in IPv6)'],
  ['64:ff9b::10.0.0.1', 'private (IPv4 in IPv6)'],
  ['64:ff9b::a9fe:a9fe', 'link-local (IPv4 in IPv6)'],
  ['64:ff9b::8.8.8.8', null],
  ['64:ff9b:1::7f00:1', 'reserved (local-use NAT64'],
  ['64:ff9b:1::808:808', 'reserved (local-use NAT64'],
  // … 6to4 (2002::/16) and Teredo (2001::/32): relayed to an IPv4 address, always refused.
  ['2002:7f00:1::', '6to4'],
  ['2002:808:808::1', '6to4'],
  ['2001::1', 'Teredo'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  // Not an IP literal: host names are resolved first, never classified as text.
  ['localhost', 'not an IP address'],
  ['0x7f.1', 'not an IP address'],
  ['2130706433', 'not an IP address'],
  ['0177.0.0.1', 'not an IP address'],
  ['', 'not an IP address'],
  ['[::1]', 'not an IP address'],
];

describe('webhook address guard (blockedReason)', () => {
  it.each(TABLE)('%s → %s', (address, reason) => {
    const got = blockedReason(address);
    if (reason === null) expect(got).toBeNull();
    else expect(got?.startsWith(reason), `${address}: ${got}`).toBe(true);
  });
});
