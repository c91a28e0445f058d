/**
 * Password hashing for Studio sign-in (docs/api.md "Studio sessions, people, keys and workspace"
 * (D90): argon2id or scrypt). Node's own scrypt
 * (node:crypto, no native add-on): a 16-byte random salt per password, N=2^15, r=8, p=1 (32 MiB,
 * OWASP's minimum for scrypt), 32-byte key. The stored string carries its parameters,
 * `scrypt$<log2 N>$<r>$<p>$<salt b64url>$<hash b64url>`, so they can be raised later without
 * invalidating stored hashes. Verification compares in constant time, and `verifyPassword(null, …)`
 * hashes anyway, against a decoy of the cost new hashes get, so an unknown email or a person
 * without a password costs the same work as a wrong password. Hashing runs on libuv's thread pool,
 * not on the event loop.
 *
 * The cost of new hashes (log2 N) is the caller's `Config.passwordHashLog2n`: always
 * PASSWORD_HASH_LOG2N in a server or the CLI (no environment variable sets it); only test suites
 * build a Config with a lower one, so that hundreds of sign-ins do not spend minutes hashing.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** Password length bounds (contract: 10 to 200 characters). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** log2 of scrypt's N for new hashes in every deployment: N=2^15 (32 MiB with r=8). */
export const PASSWORD_HASH_LOG2N = 15;
/** The lowest cost a Config may carry (N=2^10, 1 MiB), for test suites only. */
export const PASSWORD_HASH_MIN_LOG2N = 10;
/** The highest cost a Config or a stored hash may name (N=2^20, 1 GiB with r=8). */
export const PASSWORD_HASH_MAX_LOG2N = 20;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, log2n: number, r: number, p: number, length: number): Promise<Buffer> {
  const N = 2 ** log2n;
  // Node refuses more than maxmem (32 MiB by default); scrypt needs 128 * N * r bytes plus a little.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, length, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** A new stored hash of `password` (fresh salt) at cost N=2^`log2n` (Config.passwordHashLog2n). */
export async function hashPassword(password: string, log2n: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, log2n, R, P, KEY_LENGTH);
  return ['scrypt', log2n, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * What unknown users are checked against: a random salt and random bytes as the hash, so no
 * password matches it (and `parsed !== null` below answers false regardless), at the cost of new
 * hashes.
 */
const DECOY = { salt: randomBytes(16), hash: randomBytes(KEY_LENGTH) };

/**
 * True when `password` matches `stored` (checked at the cost `stored` names). A null or unreadable
 * `stored` is checked against a decoy hash at N=2^`log2n`, the cost of new hashes
 * (Config.passwordHashLog2n), so it takes the same work, and answers false.
 */
export async function verifyPassword(stored: string | null, password: string, log2n: number): Promise<boolean> {
  const parsed = stored ? parse(stored) : null;
  const target = parsed ?? { ...DECOY, log2n, r: R, p: P };
  const key = await derive(password, target.salt, target.log2n, target.r, target.p, target.hash.length);
  return timingSafeEqual(key, target.hash) && parsed !== null;
}

function parse(stored: string): { log2n: number; r: number; p: number; salt: Buffer; hash: Buffer } | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [log2n, r, p] = parts.slice(1, 4).map(Number);
  if (![log2n, r, p].every((n) => Number.isInteger(n) && n > 0) || log2n > PASSWORD_HASH_MAX_LOG2N || r > 32 || p > 16) return null;
  const salt = Buffer.from(parts[4], 'base64url');
  const hash = Buffer.from(parts[5], 'base64url');
  if (salt.length < 8 || hash.length < 16) return null;
  return { log2n, r, p, salt, hash };
}
