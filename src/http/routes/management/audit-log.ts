/**
 * The audit log's endpoint (docs/api.md "Audit log" (D122)): `GET /audit-log`, owners and admins
 * in a Studio session (action `audit:read`; a key answers 403: automation reads the log with
 * `quire audit export`). Read-only: no route edits or deletes a row. Parse, call, reply.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../../context.js';
import { listAuditLog } from '../../../modules/audit/operations.js';
import { EnvelopeOf, ok, PageMeta } from '../../envelope.js';
import { AuditEntrySchema, AuditLogQuery } from '../../schemas/audit.js';

export async function auditLogRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/audit-log',
    {
      config: { action: 'audit:read' },
      schema: {
        tags: ['Studio: audit log'],
        operationId: 'listAuditLog',
        summary: 'The audit log, newest first (owners and admins, Studio session)',
        description:
          "Who did what: every management write, sign-in (and failed sign-in), sign-out, key, member, invitation, settings, webhook, release, export and restore action, recorded in the change's own transaction. Filters: `actor` (`user:<id>`, `key:<id>`, `system`), `action` (exact, or a prefix such as `entry.*`), `target` (`<kind>:<id>`), `from` (inclusive) and `to` (exclusive). Pages by cursor: pass `meta.next_cursor` back as `cursor` with the same filters.",
        querystring: AuditLogQuery,
        response: { 200: EnvelopeOf(Type.Array(AuditEntrySchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, meta } = await listAuditLog(ctx, req.actor, req.query);
      return ok(items, meta);
    },
  );
}
