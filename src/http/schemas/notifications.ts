/**
 * Wire shapes of people and notifications (docs/workflow.md "Notifications"): one schema per
 * shape, giving the TypeScript type, the validation and the OpenAPI document.
 */
import { Type, type Static } from '@sinclair/typebox';
import { NOTIFICATION_KINDS } from '../../modules/notifications/model.js';
import { NullableString, Timestamp } from './common.js';

/** A person as comments, notifications and workflows show one. */
export const PersonSchema = Type.Object({ id: Type.Integer(), email: Type.String(), name: NullableString }, { title: 'Person' });

export const NotificationSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    kind: Type.Union(NOTIFICATION_KINDS.map((k) => Type.Literal(k))),
    read: Type.Boolean(),
    created_at: Timestamp,
    actor: Type.Union([PersonSchema, Type.Null()], { description: 'who acted; null for the system (a scheduled release)' }),
    item: Type.Union([
      Type.Object({
        kind: Type.Union([Type.Literal('entry'), Type.Literal('page')]),
        id: Type.String(),
        content_type: NullableString,
        slug: NullableString,
        title: NullableString,
      }),
      Type.Null(),
    ]),
    release: Type.Union([Type.Object({ id: Type.String(), name: NullableString }), Type.Null()]),
    comment_id: NullableString,
    stage: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
    message: Type.String({ description: 'one sentence, shown after the actor’s name' }),
  },
  { title: 'Notification' },
);
export type NotificationWire = Static<typeof NotificationSchema>;

export const NotificationListQuery = Type.Object(
  {
    unread: Type.Optional(Type.Boolean({ description: 'true: unread notifications only' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'meta.next_cursor of the previous page' })),
  },
  { additionalProperties: false },
);

export const NotificationListMeta = Type.Object(
  {
    page_size: Type.Integer(),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
    unread: Type.Integer({ description: "the caller's unread notifications in this workspace, whatever the page" }),
  },
  { title: 'NotificationListMeta' },
);

export const NotificationReadBody = Type.Union(
  [
    Type.Object({ ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 500 }) }, { additionalProperties: false }),
    Type.Object({ all: Type.Literal(true) }, { additionalProperties: false }),
  ],
  { description: '`{ids}` marks those of your notifications read; `{all: true}` every one of them' },
);

export const NotificationReadResult = Type.Object({ read: Type.Integer({ description: 'how many were unread and are read now' }) });
