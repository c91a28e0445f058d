/**
 * The `webhooks:write` scope (D82) is new: keys created before it hold only the four earlier
 * scopes. A management key that held all four was a full-access key (what `quire bootstrap`, the
 * demo and "all scopes" in the Studio create), so it gets the new scope too, as such a key would
 * if created today; narrower keys stay as they are. What a key may do is still intersected with
 * its creator's role per request, so an editor's key gains nothing (editors lack the scope).
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../types.js';

const EARLIER = ['content:write', 'content:publish', 'media:write', 'schema:write'];

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const keys = await sql<{ id: string; scopes: unknown }>`SELECT id, scopes FROM api_keys WHERE key_class = 'management'`.execute(db);
  for (const key of keys.rows) {
    const scopes: unknown = typeof key.scopes === 'string' ? JSON.parse(key.scopes) : key.scopes;
    if (!Array.isArray(scopes) || !EARLIER.every((s) => scopes.includes(s)) || scopes.includes('webhooks:write')) continue;
    await sql`UPDATE api_keys SET scopes = ${JSON.stringify([...scopes, 'webhooks:write'])} WHERE id = ${key.id}`.execute(db);
  }
}
