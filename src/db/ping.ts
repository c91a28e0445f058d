/** Database reachability for `/readyz`: true when a trivial query answers. */
import { sql } from 'kysely';
import type { Db } from './types.js';

export async function pingDb(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db.kysely);
    return true;
  } catch {
    return false;
  }
}
