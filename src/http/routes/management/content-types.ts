/** Management routes for content types (docs/api.md "Content types"). Parse, call, reply. */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { offsetMeta } from '../../../lib/pagination.js';
import {
  createContentType,
  deleteContentType,
  getBlockUsage,
  getContentType,
  listContentTypes,
  updateContentType,
} from '../../../modules/content-types/operations.js';
import { EmptyEnvelope, EnvelopeOf, ok, PageMeta } from '../../envelope.js';
import { PageQuery, SlugParam } from '../../schemas/common.js';
import { ContentTypeSchema, CreateContentTypeBody, UpdateContentTypeBody } from '../../schemas/content-types.js';

const tags = ['Management: content types'];
const SlugParams = Type.Object({ slug: SlugParam });

export async function contentTypeRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/content-types',
    {
      schema: {
        operationId: 'listContentTypes',
        tags,
        summary: 'List content types',
        description:
          'Content types of the workspace with their fields, oldest first; `is_block` keeps block types only (true) or entry types only (false) (D32).',
        errors: ['PAGE_TOO_DEEP'],
        querystring: Type.Object({ ...PageQuery, is_block: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
        response: { 200: EnvelopeOf(Type.Array(ContentTypeSchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, total, window } = await listContentTypes(ctx, req.actor, req.query);
      return ok(items, offsetMeta(window, total, items.length));
    },
  );

  r.post(
    '/content-types',
    {
      config: { action: 'schema:write' },
      schema: {
        operationId: 'createContentType',
        tags,
        summary: 'Create a content type (optionally with its fields)',
        description: 'Creates a content type (or a block type with `is_block`), with its fields when given; the slug is derived from the name unless sent.',
        errors: ['SLUG_TAKEN'],
        body: CreateContentTypeBody,
        response: { 201: EnvelopeOf(ContentTypeSchema) },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return ok(await createContentType(ctx, req.actor, req.body));
    },
  );

  r.get(
    '/content-types/:slug',
    {
      schema: {
        operationId: 'getContentType',
        tags,
        summary: 'Get a content type with its fields',
        params: SlugParams,
        response: { 200: EnvelopeOf(ContentTypeSchema) },
      },
    },
    async (req) => ok(await getContentType(ctx, req.actor, req.params.slug)),
  );

  r.patch(
    '/content-types/:slug',
    {
      config: { action: 'schema:write' },
      schema: {
        operationId: 'updateContentType',
        tags,
        summary: 'Edit presentation metadata',
        description: 'Changes name, description, icon, display field or orderable; `is_block` and the slug cannot change.',
        params: SlugParams,
        body: UpdateContentTypeBody,
        response: { 200: EnvelopeOf(ContentTypeSchema) },
      },
    },
    async (req) => ok(await updateContentType(ctx, req.actor, req.params.slug, req.body)),
  );

  r.delete(
    '/content-types/:slug',
    {
      config: { action: 'schema:write' },
      schema: {
        operationId: 'deleteContentType',
        tags,
        summary: 'Delete an empty content type',
        description: 'Deletes a content type that holds no entries (a block type no block uses); otherwise 409 CONTENT_TYPE_NOT_EMPTY.',
        params: SlugParams,
        response: { 200: EmptyEnvelope },
        errors: ['CONTENT_TYPE_NOT_EMPTY'],
      },
    },
    async (req) => {
      await deleteContentType(ctx, req.actor, req.params.slug);
      return ok(null);
    },
  );

  r.get(
    '/content-types/:slug/block-usage',
    {
      schema: {
        operationId: 'getBlockUsage',
        tags,
        summary: 'Where a block type is used',
        description: 'How many blocks of this type exist across all pages, and each page using it once (D35).',
        params: SlugParams,
        response: {
          200: EnvelopeOf(
            Type.Object(
              { count: Type.Integer(), is_block: Type.Boolean(), pages: Type.Array(Type.Object({ slug: Type.String(), status: Type.String() })) },
              { title: 'BlockUsage' },
            ),
          ),
        },
      },
    },
    async (req) => ok(await getBlockUsage(ctx, req.actor, req.params.slug)),
  );
}
