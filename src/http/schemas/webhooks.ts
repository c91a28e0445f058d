/**
 * Wire schemas of webhooks (docs/api.md "Webhooks" (D82)): the subscription, its
 * create and update bodies, and the delivery log (deliveries with their attempts).
 */
import { Type, type Static } from '@sinclair/typebox';
import { PageQuery, Timestamp } from './common.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const webhookProperties = {
  id: Type.String({ format: 'uuid' }),
  url: Type.String({ description: 'http:// or https:// URL the events are POSTed to' }),
  description: Nullable(Type.String()),
  events: Type.Array(Type.String(), {
    description: 'event types (`entry.published`), `<kind>.*` (every event of a kind), `*.<action>` (an action of every kind, e.g. `*.stage_changed`) or `*`',
  }),
  content_types: Type.Array(Type.String(), { description: 'content type slugs; empty: all' }),
  enabled: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const WebhookSchema = Type.Object(webhookProperties, { $id: 'Webhook', title: 'Webhook' });
export type WebhookRecord = Static<typeof WebhookSchema>;

export const CreatedWebhookSchema = Type.Object(
  { ...webhookProperties, secret: Type.String({ description: 'the signing secret (`whsec_…`), shown only in this answer' }) },
  { $id: 'CreatedWebhook', title: 'CreatedWebhook' },
);
export type CreatedWebhookRecord = Static<typeof CreatedWebhookSchema>;

/** Longest grace period of a secret rotation: 7 days (docs/api.md "Rotating the signing secret"). */
export const MAX_GRACE_SECONDS = 7 * 86_400;
/** Grace period of a rotation without `grace_seconds`: 24 hours. */
export const DEFAULT_GRACE_SECONDS = 86_400;

export const RotateSecretBody = Type.Object(
  {
    grace_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_GRACE_SECONDS,
        description: 'how long the replaced secret keeps signing beside the new one, in seconds (default 86400 = 24 h, at most 604800 = 7 days; 0: not at all)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RotateSecretInput = Static<typeof RotateSecretBody>;

export const RotatedWebhookSchema = Type.Object(
  {
    ...webhookProperties,
    secret: Type.String({ description: 'the new signing secret (`whsec_…`), shown only in this answer' }),
    previous_secret_expires_at: Nullable(
      Type.String({ description: 'ISO 8601 UTC: until when deliveries are also signed with the replaced secret; null when it was dropped at once' }),
    ),
  },
  { $id: 'RotatedWebhook', title: 'RotatedWebhook' },
);
export type RotatedWebhookRecord = Static<typeof RotatedWebhookSchema>;

const UrlField = Type.String({ minLength: 1, maxLength: 2000 });
const EventsField = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 });
const ContentTypesField = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 200 });
const DescriptionField = Nullable(Type.String({ maxLength: 500 }));

export const CreateWebhookBody = Type.Object(
  {
    url: UrlField,
    events: EventsField,
    content_types: Type.Optional(ContentTypesField),
    enabled: Type.Optional(Type.Boolean()),
    description: Type.Optional(DescriptionField),
  },
  { additionalProperties: false },
);
export type CreateWebhookInput = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(UrlField),
    events: Type.Optional(EventsField),
    content_types: Type.Optional(ContentTypesField),
    enabled: Type.Optional(Type.Boolean()),
    description: Type.Optional(DescriptionField),
  },
  { additionalProperties: false },
);
export type UpdateWebhookInput = Static<typeof UpdateWebhookBody>;

export const WebhookParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const DeliveryParams = Type.Object({ id: Type.String({ format: 'uuid' }), delivery_id: Type.String({ format: 'uuid' }) });

export const DeliveryStatus = Type.Unsafe<'pending' | 'delivered' | 'failed'>(Type.String({ enum: ['pending', 'delivered', 'failed'] }));

export const WebhookAttemptSchema = Type.Object({
  number: Type.Integer({ minimum: 1 }),
  started_at: Timestamp,
  finished_at: Type.Union([Timestamp, Type.Null()], { description: 'null while under way, or when the sender stopped before recording an outcome' }),
  duration_ms: Nullable(Type.Integer()),
  status_code: Nullable(Type.Integer()),
  response_excerpt: Type.Union([Type.String(), Type.Null()], { description: 'the first 1 KB of the answer' }),
  error: Nullable(Type.String()),
});

export const WebhookDeliverySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'also the `webhook-id` header of every attempt' }),
    webhook_id: Type.String({ format: 'uuid' }),
    event_id: Type.Union([Type.Integer(), Type.Null()], { description: 'null for a ping' }),
    event_type: Type.String(),
    status: DeliveryStatus,
    attempt_count: Type.Integer(),
    next_attempt_at: Type.Union([Timestamp, Type.Null()], { description: 'when a pending delivery is tried next' }),
    give_up_at: Timestamp,
    created_at: Timestamp,
    payload: Type.Unknown({ description: 'the JSON body sent' }),
    attempts: Type.Array(WebhookAttemptSchema, { description: 'newest first' }),
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery' },
);
export type WebhookDeliveryRecord = Static<typeof WebhookDeliverySchema>;

export const DeliveriesQuery = Type.Object({ ...PageQuery, status: Type.Optional(DeliveryStatus) }, { additionalProperties: false });
