/**
 * Management routes for pages (docs/api.md "Pages (management)", "ETag and If-Match" (D5), "States and
 * scheduling" (D23), "Rules Quire decided" (D26, D34); docs/pages.md "The model" (D25)). Parse,
 * call,
 * reply. Responses about one page carry `ETag: "<id>-<version>"`; PUT, PATCH, DELETE, the state
 * actions and the block reorder honour `If-Match` (412 when stale). The static `/pages/reorder` route
 * wins over `/pages/:slug` (find-my-way prefers static segments); that slug is reserved.
 *
 * Response `data`: POST, PUT, PATCH, duplicate and archive → Page; GET /pages/{slug} → the page detail
 * `{page, blocks, seo_translations, block_translations}` with stored values and every
 * translation; publish, unpublish, schedule, reorders and DELETE → null (D23).
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { offsetMeta } from '../../../lib/pagination.js';
import { toManagedWirePage, toWirePageDetail } from '../../wire/pages.js';
import { itemWorkflows } from '../../../modules/workflows/operations.js';
import { getPageVariant, updatePageVariant } from '../../../modules/releases/variants.js';
import { ReleaseQuery } from '../../schemas/releases.js';
import {
  createPage,
  deletePage,
  duplicatePage,
  getPage,
  listPages,
  patchPage,
  reorderBlocks,
  reorderPages,
  updatePage,
} from '../../../modules/pages/operations.js';
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
  PagePatchBody,
  PageParams,
  PageReorderBody,
  PageReplaceBody,
  PageSchema,
  PageVersionParams,
} from '../../schemas/pages.js';
import { VersionListQuery, VersionSchema } from '../../schemas/entries.js';

const tags = ['Management: pages'];
/** What each state action does (D20, D71), for the OpenAPI descriptions. */
const STATE_ACTIONS: Record<'publish' | 'unpublish', string> = {
  publish:
    'Makes the working copy (SEO and block tree) the published version; allowed from draft, scheduled, archived, and from published with pending changes.',
  unpublish: 'Takes the page out of delivery (back to draft); allowed from published and scheduled.',
};

export async function pageRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/pages',
    {
      schema: {
        operationId: 'listPages',
        tags,
        summary: 'List pages (every status), in navigation order by default',
        description: 'Pages of every status without their blocks; `status` narrows, `sort` orders (default `position:asc`).',
        errors: ['PAGE_TOO_DEEP'],
        querystring: PageListQuery,
        response: { 200: EnvelopeOf(Type.Array(PageSchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, total, window } = await listPages(ctx, req.actor, req.query);
      const workflows = await itemWorkflows(ctx, req.actor, 'page', items);
      return ok(
        items.map((p) => ({ ...toManagedWirePage(p), workflow: workflows.get(p.id) ?? null })),
        offsetMeta(window, total, items.length),
      );
    },
  );

  r.post(
    '/pages',
    {
      config: { action: 'content:write' },
      schema: {
        operationId: 'createPage',
        tags,
        summary: 'Create a draft page with SEO and a block tree',
        description:
          'Creates a draft page; `blocks` are `{type, data}` items or a tree with `children` and per-block `translations`, `seo_translations` keyed by locale (D25). At most 10 levels and 1,000 blocks.',
        body: PageCreateBody,
        response: { 201: EnvelopeOf(PageSchema) },
        errors: ['SLUG_TAKEN'],
        etag: true,
      },
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
      config: { action: 'content:write' },
      schema: {
        operationId: 'reorderPages',
        tags,
        summary: 'Set the navigation order (complete list of page ids)',
        description: '`order` lists every page id of the workspace exactly once (D34).',
        body: PageReorderBody,
        response: { 200: EmptyEnvelope },
      },
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
        operationId: 'getPage',
        tags,
        summary: 'Get a page (any status) with its block tree and translations',
        description:
          'The working copy: the page, its block tree and every SEO and block translation; the ETag serves `If-Match` on later writes. With `release`, the page’s release version in that release (docs/releases.md); the ETag stays the page’s.',
        etag: true,
        params: PageParams,
        querystring: Type.Object(ReleaseQuery, { additionalProperties: false }),
        response: { 200: EnvelopeOf(PageDetailSchema) },
      },
    },
    async (req, reply) => {
      const content =
        req.query.release !== undefined
          ? await getPageVariant(ctx, req.actor, { slug: req.params.slug }, req.query.release)
          : await getPage(ctx, req.actor, { slug: req.params.slug });
      setEntityTag(reply, content.page);
      const detail = toWirePageDetail(content);
      const workflows = await itemWorkflows(ctx, req.actor, 'page', [content.page]);
      return ok({ ...detail, page: { ...detail.page, workflow: workflows.get(content.page.id) ?? null } });
    },
  );

  r.put(
    '/pages/:slug',
    {
      config: { action: 'content:write' },
      schema: {
        operationId: 'updatePage',
        tags,
        summary: 'Replace a page’s SEO and block tree',
        description:
          'Replaces the working copy (SEO, SEO translations, blocks); a block sent with an existing `id` keeps it (D25). A published page shows `has_pending_changes` while its working copy differs from the published version (D70). A stale `If-Match` answers 412. With `release`, replaces the page’s release version in that release instead (docs/releases.md).',
        params: PageParams,
        querystring: Type.Object(ReleaseQuery, { additionalProperties: false }),
        body: PageReplaceBody,
        response: { 200: EnvelopeOf(PageSchema) },
        errors: ['SLUG_TAKEN', 'PRECONDITION_FAILED'],
        etag: true,
      },
    },
    async (req, reply) => {
      const page =
        req.query.release !== undefined
          ? (await updatePageVariant(ctx, req.actor, { slug: req.params.slug }, req.query.release, req.body)).page
          : await updatePage(ctx, req.actor, { slug: req.params.slug }, req.body, { ifMatch: ifMatchOf(req) });
      setEntityTag(reply, page);
      return ok(toManagedWirePage(page));
    },
  );

  r.patch(
    '/pages/:slug',
    {
      config: { action: 'content:write' },
      schema: {
        operationId: 'patchPage',
        tags,
        summary: 'Change a page’s slug, SEO or SEO translations without sending its blocks',
        description:
          'Changes the keys sent: `slug`, `seo` (the SEO keys sent replace theirs, the others stay; null clears one), `seo_translations` (as on PUT: the whole set). The block tree is left as it is. The same write as PUT: a version when the content changed, `has_pending_changes` on a published page (D70), a new ETag; a stale `If-Match` answers 412. Writes the working copy only (release versions: PUT with `release`).',
        params: PageParams,
        // No `release`: a PATCH that silently wrote the working copy instead would be worse than a 400.
        querystring: Type.Object({}, { additionalProperties: false }),
        body: PagePatchBody,
        response: { 200: EnvelopeOf(PageSchema) },
        errors: ['SLUG_TAKEN', 'PRECONDITION_FAILED'],
        etag: true,
      },
    },
    async (req, reply) => {
      const page = await patchPage(ctx, req.actor, { slug: req.params.slug }, req.body, { ifMatch: ifMatchOf(req) });
      setEntityTag(reply, page);
      return ok(toManagedWirePage(page));
    },
  );

  r.delete(
    '/pages/:slug',
    {
      config: { action: 'content:write' },
      schema: {
        operationId: 'deletePage',
        tags,
        summary: 'Delete a page and its blocks',
        description: 'Deletes the page, its blocks, translations and history. A stale `If-Match` answers 412.',
        params: PageParams,
        response: { 200: EmptyEnvelope },
        errors: ['PRECONDITION_FAILED'],
      },
    },
    async (req) => {
      await deletePage(ctx, req.actor, { slug: req.params.slug }, { ifMatch: ifMatchOf(req) });
      return ok(null);
    },
  );

  r.post(
    '/pages/:slug/duplicate',
    {
      config: { action: 'content:write' },
      schema: {
        operationId: 'duplicatePage',
        tags,
        summary: 'Duplicate a page (and its block tree) as a draft',
        description: 'A new draft with a copy of the block tree (new block ids), slug `<slug>-copy` (then `-copy-2`, …), placed last (D26).',
        params: PageParams,
        response: { 201: EnvelopeOf(PageSchema) },
        etag: true,
      },
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
      config: { action: 'content:write' },
      schema: {
        operationId: 'reorderBlocks',
        tags,
        summary: 'Reorder the children of one block (or the root blocks): complete list',
        description: '`order` lists every child id of `parent_id` (or every root block id) exactly once (D34). A stale `If-Match` answers 412.',
        errors: ['PRECONDITION_FAILED'],
        etag: true,
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
        config: { action: 'content:publish' },
        schema: {
          operationId: `${verb}Page`,
          tags,
          summary: `${verb[0].toUpperCase()}${verb.slice(1)} a page`,
          description: `${STATE_ACTIONS[verb]} Refused transitions answer 409 INVALID_STATE_TRANSITION (D20, D71); a stale \`If-Match\` answers 412.`,
          params: PageParams,
          response: { 200: EmptyEnvelope },
          errors: ['INVALID_STATE_TRANSITION', 'PRECONDITION_FAILED'],
          etag: true,
        },
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
      config: { action: 'content:publish' },
      schema: {
        operationId: 'archivePage',
        tags,
        summary: 'Archive a page',
        description:
          'Archives the page, out of delivery, and returns it (D23); allowed from draft, scheduled and published. Refused transitions answer 409; a stale `If-Match` 412.',
        params: PageParams,
        response: { 200: EnvelopeOf(PageSchema) },
        errors: ['INVALID_STATE_TRANSITION', 'PRECONDITION_FAILED'],
        etag: true,
      },
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
      config: { action: 'content:publish' },
      schema: {
        operationId: 'schedulePage',
        tags,
        summary: 'Schedule a page for publication',
        description:
          'Publishes the working copy at `publish_at` (in the future), without further requests (D21). Refused transitions answer 409; a stale `If-Match` 412.',
        params: PageParams,
        body: ScheduleBody,
        response: { 200: EmptyEnvelope },
        errors: ['INVALID_STATE_TRANSITION', 'PRECONDITION_FAILED'],
        etag: true,
      },
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
        operationId: 'listPageVersions',
        tags,
        summary: 'List a page’s versions, newest first (no snapshots)',
        description:
          'Every write that changed the page’s content or state appended a version (D72). Offset pages carry totals; `cursor` (a previous page’s `meta.next_cursor`) gives the next page by keyset, without totals.',
        errors: ['PAGE_TOO_DEEP'],
        params: PageParams,
        querystring: VersionListQuery,
        response: { 200: EnvelopeOf(Type.Array(VersionSchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, meta } = await listPageVersions(ctx, req.actor, { slug: req.params.slug }, req.query);
      return ok(items, meta);
    },
  );

  r.get(
    '/pages/:slug/versions/:version',
    {
      schema: {
        operationId: 'getPageVersion',
        tags,
        summary: 'Get a page as one version holds it (page detail; the version in meta)',
        description: 'The snapshot of one version in the page detail shape; `meta` describes the version (D72).',
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
      config: { action: 'content:write' },
      schema: {
        operationId: 'restorePageVersion',
        tags,
        summary: 'Make a version the page’s working copy (a new version, status unchanged)',
        description:
          'The working copy becomes the snapshot of that version, recorded as a new `restore` version; a published page then has pending changes (D72). A snapshot that no longer fits the content model answers 400.',
        errors: ['PRECONDITION_FAILED'],
        etag: true,
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
