/**
 * ETag / If-Match for management responses about one versioned record (docs/api.md "ETag and
 * If-Match" (D5)). The
 * tag format and the 412 check are in src/modules/publishing/preconditions.ts; operations run
 * the check inside their transaction. Routes read `If-Match` with ifMatchOf and answer with
 * setEntityTag.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { entityTag, type Versioned } from '../modules/publishing/preconditions.js';

/** The raw `If-Match` header (undefined when absent), passed to operations as `ifMatch`. */
export function ifMatchOf(request: FastifyRequest): string | undefined {
  const raw = request.headers['if-match'];
  return Array.isArray(raw) ? raw.join(', ') : raw;
}

/** Sets `ETag: "<id>-<version>"` on the reply. */
export function setEntityTag(reply: FastifyReply, record: Versioned): void {
  reply.header('ETag', entityTag(record));
}
