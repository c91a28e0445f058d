/**
 * Which content types a delivery key may read (docs/api.md "Delivery keys", docs/api.md
 * "Delivery keys" (D13), "Rules Quire decided" (D36)): the whitelist decides the content types (the
 * permission check's rule,
 * modules/access/authorize.ts, action `content:read`), and block types are never listed as
 * entries. Which items and which copies it sees follows from its perspective, the read model's
 * (src/modules/read/: production keys read published versions, preview keys working copies).
 */
import { AppError, notFound } from '../../errors.js';
import { authorize, can } from '../access/authorize.js';
import type { Actor } from '../auth/permissions.js';
import type { DeliverySchema, DeliveryType } from './model.js';

/** True when entries of `type` can be delivered to this key (non-block, whitelisted). */
export function canReadEntriesOf(actor: Actor, type: DeliveryType): boolean {
  return !type.is_block && can(actor, 'content:read', { contentType: type.slug });
}

/**
 * The content type named by `slug` for an entries request: 404 NOT_FOUND when unknown (D36) or a
 * block type (blocks are delivered inside their pages), 403 FORBIDDEN outside the whitelist (D13).
 */
export function requireEntryType(schema: DeliverySchema, actor: Actor, slug: string): DeliveryType {
  const type = schema.bySlug.get(slug);
  if (!type) throw notFound(`content type '${slug}'`);
  if (type.is_block) throw new AppError('NOT_FOUND', `content type '${slug}' is a block type; its blocks are delivered with their pages`);
  authorize(actor, 'content:read', { contentType: slug });
  return type;
}
