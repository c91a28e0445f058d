/**
 * API key values (docs/api.md "Authentication" (D10)): `svc_live_` (delivery) or `svc_mgmt_`
 * (management) then 40
 * random base62 characters. Only the SHA-256 of a key is stored; the key is shown once.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { KeyClass } from './permissions.js';

export const KEY_PREFIX: Record<KeyClass, string> = { delivery: 'svc_live_', management: 'svc_mgmt_' };
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const RANDOM_LENGTH = 40;

export function generateKey(keyClass: KeyClass): string {
  let out = KEY_PREFIX[keyClass];
  for (let i = 0; i < RANDOM_LENGTH; i++) out += BASE62[randomInt(62)];
  return out;
}

/** The class a key claims by its prefix, or null for anything else. */
export function classOfKey(key: string): KeyClass | null {
  if (!/^svc_(live|mgmt)_[A-Za-z0-9]{32,128}$/.test(key)) return null;
  return key.startsWith(KEY_PREFIX.delivery) ? 'delivery' : 'management';
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function hashesEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** A display hint that identifies a key without revealing it: prefix, first 4 and last 4. */
export function keyHint(key: string): string {
  const cls = classOfKey(key);
  const prefix = cls ? KEY_PREFIX[cls] : '';
  return `${prefix}${key.slice(prefix.length, prefix.length + 4)}…${key.slice(-4)}`;
}
