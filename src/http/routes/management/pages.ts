/**
 * Management routes for pages (api.md "Pages"; DECISIONS.md D5, D23, D25, D26, D34). Parse, call,
 * reply. Responses about one page carry `ETag: "<id>-<version>"`; PUT, DELETE, the state actions
 * and the block reorder honour `If-Match` (412 when stale). The static `/pages/reorder` route
 * wins over `/pages/:slug` (find-my-way prefers static segments); that slug is reserved.
 *
 * Response `data`: POST, PUT, duplicate and archive → Page; GET /pages/{slug} → the page detail
 * `{page, blocks, seo_translations, block_translations}` with stored values and every
 * translation; publish, unpublish, schedule, reorders and DELETE → null (D23).
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { offsetMeta } from '../../../lib/pagination.js';
import { toManagedWirePage, toWirePageDetail } from '../../wire/pages.js';
import { createPage, deletePage, duplicatePage, getPage, listPages, reorderBlocks, reorderPages, updatePage } from '../../../modules/pages/operations.js';
import { changePageStatus, getPageVersion, listPageVersions, restorePageVersion } from '../../../modules/pages/publishing.js';
import type { Verb } from '../../../modules/publishing/states.js';
import { EmptyEnvelope, EnvelopeOf, ok, PageMeta } from '../../envelope.js';
import { ifMatchOf, setEntityTag } from '../../etag.js';
import { ScheduleBody } from '../../schemas/entries.js';
import {
  BlockReorderBody,
  PageCreateBody,
  PageDetailSchema,
  PageListQuery,
  PageParams,
  PageReorderBody,
  PageReplaceBody,
  PageSchema,
  PageVersionParams,
} from '../../schemas/pages.js';
import { VersionListQuery, VersionSchema } from '../../schemas/entries.js';

const tags = ['Management: pages'];

export async function pageRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/pages',
    {
      schema: {
        tags,
        summary: 'List pages (every status), in navigation order by default',
        querystring: PageListQuery,
        response: { 200: EnvelopeOf(Type.Array(PageSchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, total, window } = await listPages(ctx, req.actor, req.query);
      return ok(items.map(toManagedWirePage), offsetMeta(window, total, items.length));
    },
  );

  r.post(
    '/pages',
    {
      config: { scope: 'content:write' },
      schema: { tags, summary: 'Create a draft page with SEO and a block tree', body: PageCreateBody, response: { 201: EnvelopeOf(PageSchema) } },
    },
    async (req, reply) => {
      const page = await createPage(ctx, req.actor, req.body);
      setEntityTag(reply, page);
      reply.code(201);
      return ok(toManagedWirePage(page));
    },
  );

  r.patch(
    '/pages/reorder',
    {
      config: { scope: 'content:write' },
      schema: { tags, summary: 'Set the navigation order (complete list of page ids)', body: PageReorderBody, response: { 200: EmptyEnvelope } },
    },
    async (req) => {
      await reorderPages(ctx, req.actor, req.body.order);
      return ok(null);
    },
  );

  r.get(
    '/pages/:slug',
    {
      schema: {
        tags,
        summary: 'Get a page (any status) with its block tree and translations',
        params: PageParams,
        response: { 200: EnvelopeOf(PageDetailSchema) },
      },
    },
    async (req, reply) => {
      const content = await getPage(ctx, req.actor, { slug: req.params.slug });
      setEntityTag(reply, content.page);
      return ok(toWirePageDetail(content));
    },
  );

  r.put(
    '/pages/:slug',
    {
      config: { scope: 'content:write' },
      schema: { tags, summary: 'Replace a page’s SEO and block tree', params: PageParams, body: PageReplaceBody, response: { 200: EnvelopeOf(PageSchema) } },
    },
    async (req, reply) => {
      const page = await updatePage(ctx, req.actor, { slug: req.params.slug }, req.body, { ifMatch: ifMatchOf(req) });
      setEntityTag(reply, page);
      return ok(toManagedWirePage(page));
    },
  );

  r.delete(
    '/pages/:slug',
    {
      config: { scope: 'content:write' },
      schema: { tags, summary: 'Delete a page and its blocks', params: PageParams, response: { 200: EmptyEnvelope } },
    },
    async (req) => {
      await deletePage(ctx, req.actor, { slug: req.params.slug }, { ifMatch: ifMatchOf(req) });
      return ok(null);
    },
  );

  r.post(
    '/pages/:slug/duplicate',
    {
      config: { scope: 'content:write' },
      schema: { tags, summary: 'Duplicate a page (and its block tree) as a draft', params: PageParams, response: { 201: EnvelopeOf(PageSchema) } },
    },
    async (req, reply) => {
      const page = await duplicatePage(ctx, req.actor, { slug: req.params.slug });
      setEntityTag(reply, page);
      reply.code(201);
      return ok(toManagedWirePage(page));
    },
  );

  r.patch(
    '/pages/:slug/blocks/reorder',
    {
      config: { scope: 'content:write' },
      schema: {
        tags,
        summary: 'Reorder the children of one block (or the root blocks): complete list',
        params: PageParams,
        body: BlockReorderBody,
        response: { 200: EmptyEnvelope },
      },
    },
    async (req, reply) => {
      const page = await reorderBlocks(ctx, req.actor, { slug: req.params.slug }, req.body, { ifMatch: ifMatchOf(req) });
      setEntityTag(reply, page);
      return ok(null);
    },
  );

  for (const verb of ['publish', 'unpublish'] as const satisfies readonly Verb[]) {
    r.patch(
      `/pages/:slug/${verb}`,
      {
        config: { scope: 'content:publish' },
        schema: { tags, summary: `${verb[0].toUpperCase()}${verb.slice(1)} a page`, params: PageParams, response: { 200: EmptyEnvelope } },
      },
      async (req, reply) => {
        const page = await changePageStatus(ctx, req.actor, { slug: req.params.slug }, verb, { ifMatch: ifMatchOf(req) });
        setEntityTag(reply, page);
        return ok(null);
      },
    );
  }

  r.patch(
    '/pages/:slug/archive',
    {
      config: { scope: 'content:publish' },
      schema: { tags, summary: 'Archive a page', params: PageParams, response: { 200: EnvelopeOf(PageSchema) } },
    },
    async (req, reply) => {
      const page = await changePageStatus(ctx, req.actor, { slug: req.params.slug }, 'archive', { ifMatch: ifMatchOf(req) });
      setEntityTag(reply, page);
      return ok(toManagedWirePage(page));
    },
  );

  r.patch(
    '/pages/:slug/schedule',
    {
      config: { scope: 'content:publish' },
      schema: { tags, summary: 'Schedule a page for publication', params: PageParams, body: ScheduleBody, response: { 200: EmptyEnvelope } },
    },
    async (req, reply) => {
      const page = await changePageStatus(ctx, req.actor, { slug: req.params.slug }, 'schedule', { ifMatch: ifMatchOf(req), publishAt: req.body.publish_at });
      setEntityTag(reply, page);
      return ok(null);
    },
  );

  r.get(
    '/pages/:slug/versions',
    {
      schema: {
        tags,
        summary: 'List a page’s versions, newest first (no snapshots)',
        params: PageParams,
        querystring: VersionListQuery,
        response: { 200: EnvelopeOf(Type.Array(VersionSchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, total, window } = await listPageVersions(ctx, req.actor, { slug: req.params.slug }, req.query);
      return ok(items, offsetMeta(window, total, items.length));
    },
  );

  r.get(
    '/pages/:slug/versions/:version',
    {
      schema: {
        tags,
        summary: 'Get a page as one version holds it (page detail; the version in meta)',
        params: PageVersionParams,
        response: { 200: EnvelopeOf(PageDetailSchema, VersionSchema) },
      },
    },
    async (req) => {
      const { content, version } = await getPageVersion(ctx, req.actor, { slug: req.params.slug }, req.params.version);
      return ok(toWirePageDetail(content), version);
    },
  );

  r.post(
    '/pages/:slug/versions/:version/restore',
    {
      config: { scope: 'content:write' },
      schema: {
        tags,
        summary: 'Make a version the page’s working copy (a new version, status unchanged)',
        params: PageVersionParams,
        response: { 200: EnvelopeOf(PageSchema) },
      },
    },
    async (req, reply) => {
      const page = await restorePageVersion(ctx, req.actor, { slug: req.params.slug }, req.params.version, { ifMatch: ifMatchOf(req) });
      setEntityTag(reply, page);
      return ok(toManagedWirePage(page));
    },
  );
}
