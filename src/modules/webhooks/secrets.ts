/**
 * Webhook signing secrets (D82): `whsec_` + base64 of 24 random bytes, the Standard Webhooks
 * form. Shown once (on create and on rotation); stored sealed with AES-256-GCM under a key
 * derived by HKDF-SHA256 from the installation secret (Context.secret). HMAC signing needs the
 * secret itself, so it cannot be hashed like API keys; sealing keeps a database copy alone from
 * revealing it. The webhook id is the GCM additional data, so a sealed value moved to another
 * webhook's row does not open.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
const FORMAT = 'v1';

/** A new secret, `whsec_<base64 of 24 bytes>`. */
export function generateSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

function sealingKey(installationSecret: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', installationSecret, Buffer.alloc(0), 'quire webhook secret v1', 32));
}

/** Seals `secret` for webhook `webhookId`: `v1.<iv>.<ciphertext>.<tag>` (base64url parts). */
export function sealSecret(installationSecret: Uint8Array, webhookId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(installationSecret), iv);
  cipher.setAAD(Buffer.from(webhookId));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [FORMAT, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** Opens a value of sealSecret; throws when it was sealed under another key or webhook, or altered. */
export function openSecret(installationSecret: Uint8Array, webhookId: string, sealed: string): string {
  const [format, iv, body, tag] = sealed.split('.');
  if (format !== FORMAT || !iv || !body || !tag) throw new Error('unknown sealed webhook secret format');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(installationSecret), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(webhookId));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
