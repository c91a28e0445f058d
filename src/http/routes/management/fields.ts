/** Management routes for fields (docs/api.md "Fields"). */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { createField, fieldDeletionImpact, fieldLocalizationImpact, listFields, reorderFields, updateField } from '../../../modules/content-types/fields.js';
import { EmptyEnvelope, EnvelopeOf, ok } from '../../envelope.js';
import { SlugParam } from '../../schemas/common.js';
import { DeletionImpactSchema, FieldInputSchema, FieldSchema, LocalizationImpactSchema, ReorderBody, UpdateFieldBody } from '../../schemas/content-types.js';

const tags = ['Management: fields'];
const SlugParams = Type.Object({ slug: SlugParam });
const FieldParams = Type.Object({ slug: SlugParam, fieldId: Type.String({ maxLength: 64 }) });

export async function fieldRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/content-types/:slug/fields',
    {
      schema: { operationId: 'listFields', tags, summary: 'List fields in order', params: SlugParams, response: { 200: EnvelopeOf(Type.Array(FieldSchema)) } },
    },
    async (req) => ok(await listFields(ctx, req.actor, req.params.slug)),
  );

  r.post(
    '/content-types/:slug/fields',
    {
      config: { action: 'schema:write' },
      schema: {
        operationId: 'createField',
        tags,
        summary: 'Add a field',
        description:
          'Adds a field (D30, D31); existing entries have no value for it. A name the content type already has answers 400. On a big table (20,000 entries or more) a filterable, sortable or unique flag waits for its index, built in the background: the field is added with that flag off and its `index_build` says what is being built; the flag turns on once the index is ready.',
        params: SlugParams,
        body: FieldInputSchema,
        response: { 201: EmptyEnvelope },
      },
    },
    async (req, reply) => {
      await createField(ctx, req.actor, req.params.slug, req.body);
      reply.code(201);
      return ok(null);
    },
  );

  r.patch(
    '/content-types/:slug/fields/reorder',
    {
      config: { action: 'schema:write' },
      schema: {
        operationId: 'reorderFields',
        tags,
        summary: 'Reorder fields (complete list)',
        description: 'Sets the order of the fields; `order` must list every field id of the content type exactly once (D34).',
        params: SlugParams,
        body: ReorderBody,
        response: { 200: EmptyEnvelope },
      },
    },
    async (req) => {
      await reorderFields(ctx, req.actor, req.params.slug, req.body.order);
      return ok(null);
    },
  );

  r.patch(
    '/content-types/:slug/fields/:fieldId',
    {
      config: { action: 'schema:write' },
      schema: {
        operationId: 'updateField',
        tags,
        summary: 'Edit label, filterable, sortable',
        description:
          "Changes the label and the filterable and sortable flags; other properties of a field cannot change here. On a big table (20,000 entries or more) a flag turned on waits for its index, built in the background without blocking reads: it stays off, the field's `index_build` says what is being built, and it turns on once the index is ready; turning it off again cancels the build.",
        params: FieldParams,
        body: UpdateFieldBody,
        response: { 200: EmptyEnvelope },
      },
    },
    async (req) => {
      await updateField(ctx, req.actor, req.params.slug, req.params.fieldId, req.body);
      return ok(null);
    },
  );

  r.get(
    '/content-types/:slug/fields/:fieldId/deletion-impact',
    {
      schema: {
        operationId: 'getFieldDeletionImpact',
        tags,
        summary: 'Entries affected by deleting a field',
        description: 'Counts the entries holding a value for the field (D35); reports only.',
        params: FieldParams,
        response: { 200: EnvelopeOf(DeletionImpactSchema) },
      },
    },
    async (req) => ok(await fieldDeletionImpact(ctx, req.actor, req.params.slug, req.params.fieldId)),
  );

  r.get(
    '/content-types/:slug/fields/:fieldId/localization-impact',
    {
      schema: {
        operationId: 'getFieldLocalizationImpact',
        tags,
        summary: 'Entries and translations affected by toggling localization',
        description: 'Counts the entries holding a value for the field and, per locale, the translations holding one (D35); reports only.',
        params: FieldParams,
        response: { 200: EnvelopeOf(LocalizationImpactSchema) },
      },
    },
    async (req) => ok(await fieldLocalizationImpact(ctx, req.actor, req.params.slug, req.params.fieldId)),
  );
}
