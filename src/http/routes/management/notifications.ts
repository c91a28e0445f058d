/**
 * The caller's notifications (docs/workflow.md "Notifications"): `GET /notifications` and
 * `POST /notifications/read`, for Studio sessions and management keys (a key reads its
 * creator's). Parse, call, reply.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../../context.js';
import { listNotifications, readNotifications } from '../../../modules/notifications/operations.js';
import { EnvelopeOf, ok } from '../../envelope.js';
import { NotificationListMeta, NotificationListQuery, NotificationReadBody, NotificationReadResult, NotificationSchema } from '../../schemas/notifications.js';

const TAGS = ['Management: notifications'];

export async function notificationRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/notifications',
    {
      schema: {
        tags: TAGS,
        operationId: 'listNotifications',
        summary: 'Your notifications in this workspace, newest first (`unread=true`: unread only)',
        description:
          'Kinds: assigned, mentioned, approval_requested, changes_requested, stage_changed, release_failed. `meta.unread` counts your unread notifications whatever the page. Pages by cursor: pass `meta.next_cursor` back as `cursor` with the same `unread`.',
        querystring: NotificationListQuery,
        response: { 200: EnvelopeOf(Type.Array(NotificationSchema), NotificationListMeta) },
      },
    },
    async (req) => {
      const { items, meta } = await listNotifications(ctx, req.actor, req.query);
      return ok(items, meta);
    },
  );

  r.post(
    '/notifications/read',
    {
      schema: {
        tags: TAGS,
        operationId: 'readNotifications',
        summary: 'Mark your notifications read: `{ids}` or `{all: true}`',
        description: "Ids of other people's notifications, or already read, change nothing; `data.read` says how many were marked.",
        body: NotificationReadBody,
        response: { 200: EnvelopeOf(NotificationReadResult) },
      },
    },
    async (req) => ok(await readNotifications(ctx, req.actor, req.body)),
  );
}
