/**
 * Management routes for webhooks (docs/api.md "Webhooks" (D82)): CRUD, secret rotation, the
 * delivery log, manual retry and ping. Every route needs `webhooks:write`, reads included (the rule is in
 * src/modules/webhooks/operations.ts). Parse, call, reply.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { offsetMeta } from '../../../lib/pagination.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  pingWebhook,
  retryDelivery,
  rotateWebhookSecret,
  updateWebhook,
} from '../../../modules/webhooks/operations.js';
import { EmptyEnvelope, EnvelopeOf, ok, PageMeta } from '../../envelope.js';
import { PageQuery } from '../../schemas/common.js';
import {
  CreatedWebhookSchema,
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryParams,
  RotatedWebhookSchema,
  RotateSecretBody,
  UpdateWebhookBody,
  WebhookDeliverySchema,
  WebhookParams,
  WebhookSchema,
} from '../../schemas/webhooks.js';

const tags = ['Management: webhooks'];
const action = 'webhooks:write' as const;

export async function webhookRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/webhooks',
    {
      config: { action },
      schema: {
        tags,
        operationId: 'listWebhooks',
        summary: 'List webhooks (scope webhooks:write)',
        errors: ['PAGE_TOO_DEEP'],
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: EnvelopeOf(Type.Array(WebhookSchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, total, window } = await listWebhooks(ctx, req.actor, req.query);
      return ok(items, offsetMeta(window, total, items.length));
    },
  );

  r.post(
    '/webhooks',
    {
      config: { action, secretAnswer: true },
      schema: {
        tags,
        operationId: 'createWebhook',
        summary: 'Create a webhook; its signing secret is in this answer only',
        description:
          'Registers a URL for events (`entry.published`, `entry.*`, `*`, …), optionally for some content types only. The signing secret (`whsec_…`, Standard Webhooks) is returned once; `Idempotency-Key` is ignored here.',
        body: CreateWebhookBody,
        response: { 201: EnvelopeOf(CreatedWebhookSchema) },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return ok(await createWebhook(ctx, req.actor, req.body));
    },
  );

  r.get(
    '/webhooks/:id',
    {
      config: { action },
      schema: { operationId: 'getWebhook', tags, summary: 'One webhook', params: WebhookParams, response: { 200: EnvelopeOf(WebhookSchema) } },
    },
    async (req) => ok(await getWebhook(ctx, req.actor, req.params.id)),
  );

  r.patch(
    '/webhooks/:id',
    {
      config: { action },
      schema: {
        tags,
        operationId: 'updateWebhook',
        summary: 'Change url, events, content_types, enabled or description',
        params: WebhookParams,
        body: UpdateWebhookBody,
        response: { 200: EnvelopeOf(WebhookSchema) },
      },
    },
    async (req) => ok(await updateWebhook(ctx, req.actor, req.params.id, req.body)),
  );

  r.post(
    '/webhooks/:id/rotate-secret',
    {
      config: { action, secretAnswer: true },
      schema: {
        tags,
        operationId: 'rotateWebhookSecret',
        summary: 'Replace the signing secret; the new one is in this answer only',
        description:
          'Answers a new signing secret (`whsec_…`) once. For `grace_seconds` (default 86400 = 24 h, at most 604800 = 7 days, 0 for none) deliveries are signed with the new and the replaced secret side by side (two space-separated signatures in `webhook-signature`), then with the new one only. `Idempotency-Key` is ignored here: a replay would hand out the secret again.',
        params: WebhookParams,
        body: RotateSecretBody,
        response: { 200: EnvelopeOf(RotatedWebhookSchema) },
      },
      // The body is optional: a POST without one rotates with the default grace period.
      preValidation: async (req) => {
        req.body ??= {};
      },
    },
    async (req) => ok(await rotateWebhookSecret(ctx, req.actor, req.params.id, req.body)),
  );

  r.delete(
    '/webhooks/:id',
    {
      config: { action },
      schema: {
        operationId: 'deleteWebhook',
        tags,
        summary: 'Delete a webhook and its delivery log',
        params: WebhookParams,
        response: { 200: EmptyEnvelope },
      },
    },
    async (req) => {
      await deleteWebhook(ctx, req.actor, req.params.id);
      return ok(null);
    },
  );

  r.get(
    '/webhooks/:id/deliveries',
    {
      config: { action },
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: 'Delivery log, newest first: each delivery with its attempts (status code, duration, response excerpt, error)',
        errors: ['PAGE_TOO_DEEP'],
        params: WebhookParams,
        querystring: DeliveriesQuery,
        response: { 200: EnvelopeOf(Type.Array(WebhookDeliverySchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, total, window } = await listDeliveries(ctx, req.actor, req.params.id, req.query);
      return ok(items, offsetMeta(window, total, items.length));
    },
  );

  r.post(
    '/webhooks/:id/deliveries/:delivery_id/retry',
    {
      config: { action },
      schema: {
        tags,
        operationId: 'retryWebhookDelivery',
        summary: 'Attempt a delivery again now; answers the delivery with the new attempt',
        description: 'Sends the delivery again at once and records the attempt; while an attempt is under way it answers 409 INVALID_STATE_TRANSITION.',
        errors: ['INVALID_STATE_TRANSITION'],
        params: DeliveryParams,
        response: { 200: EnvelopeOf(WebhookDeliverySchema) },
      },
    },
    async (req) => ok(await retryDelivery(ctx, req.actor, req.params.id, req.params.delivery_id)),
  );

  r.post(
    '/webhooks/:id/ping',
    {
      config: { action },
      schema: {
        operationId: 'pingWebhook',
        tags,
        summary: 'Send a ping event now; answers its delivery',
        description: 'Sends a `ping` event to the webhook’s URL at once and answers its delivery with the attempt’s outcome.',
        params: WebhookParams,
        response: { 200: EnvelopeOf(WebhookDeliverySchema) },
      },
    },
    async (req) => ok(await pingWebhook(ctx, req.actor, req.params.id)),
  );
}
