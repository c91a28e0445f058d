/**
 * Management routes for entries (docs/api.md "Entries", "Wire format" (D1), "ETag and
 * If-Match" (D5), "States and scheduling" (D23)). Parse, call, reply.
 * Responses about one entry carry `ETag: "<id>-<version>"`; PUT, DELETE and the state actions
 * honour `If-Match` (412 when stale). The static `/entries/bulk` and `/entries/reorder` routes
 * win over `/entries/:entry_slug` (find-my-way prefers static segments); those two slugs are
 * reserved for entries.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { bulkDeleteEntries, bulkEntryAction } from '../../../modules/entries/bulk.js';
import { toWireEntry } from '../../wire/entries.js';
import { getEntryVariant, updateEntryVariant } from '../../../modules/releases/variants.js';
import { ReleaseQuery } from '../../schemas/releases.js';
import { createEntry, deleteEntry, duplicateEntry, getEntry, listEntries, reorderEntries, updateEntry } from '../../../modules/entries/operations.js';
import { changeEntryStatus, getEntryVersion, listEntryVersions, restoreEntryVersion } from '../../../modules/entries/publishing.js';
import type { Verb } from '../../../modules/publishing/states.js';
import { itemWorkflows } from '../../../modules/workflows/operations.js';
import { EmptyEnvelope, EnvelopeOf, ok, PageMeta } from '../../envelope.js';
import { ifMatchOf, setEntityTag } from '../../etag.js';
import {
  BulkActionBody,
  BulkDeleteBody,
  BulkResultSchema,
  EntryListQuery,
  EntryParams,
  EntryReorderBody,
  EntrySchema,
  EntryWriteBody,
  ScheduleBody,
  TypeParams,
  EntryVersionParams,
  VersionListQuery,
  VersionSchema,
} from '../../schemas/entries.js';

const tags = ['Management: entries'];
/** What each state action does (D20, D71), for the OpenAPI descriptions. */
const STATE_ACTIONS: Record<'publish' | 'unpublish' | 'archive', string> = {
  publish:
    'Makes the working copy the published version (required fields are checked then); allowed from draft, scheduled, archived, and from published with pending changes.',
  unpublish: 'Takes the entry out of delivery (back to draft); allowed from published and scheduled.',
  archive: 'Archives the entry, out of delivery; allowed from draft, scheduled and published.',
};
const base = '/content-types/:slug/entries';

export async function entryRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    base,
    {
      schema: {
        operationId: 'listEntries',
        tags,
        summary: 'List entries of a content type (every status; search by display field or slug; offset or cursor pages)',
        description:
          'Entries of every status with their full translations; `status`, `search` (display field or slug) and `sort` narrow and order them; offset pages or cursor pages (`cursor` = `meta.next_cursor`).',
        errors: ['PAGE_TOO_DEEP'],
        params: TypeParams,
        querystring: EntryListQuery,
        response: { 200: EnvelopeOf(Type.Array(EntrySchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, meta } = await listEntries(ctx, req.actor, req.params.slug, req.query);
      const workflows = await itemWorkflows(ctx, req.actor, 'entry', items);
      return ok(
        items.map((e) => ({ ...toWireEntry(e), workflow: workflows.get(e.id) ?? null })),
        meta,
      );
    },
  );

  r.post(
    base,
    {
      config: { action: 'content:write' },
      schema: {
        operationId: 'createEntry',
        tags,
        summary: 'Create a draft entry',
        description:
          'Creates a draft. `data` is an object (or the same object JSON-encoded) and `translations` an object keyed by locale or an array of `{locale, data}` (D2); without `slug`, one is derived from the display field.',
        params: TypeParams,
        body: EntryWriteBody,
        response: { 201: EnvelopeOf(EntrySchema) },
        errors: ['SLUG_TAKEN', 'UNIQUE_VIOLATION'],
        etag: true,
      },
    },
    async (req, reply) => {
      const entry = await createEntry(ctx, req.actor, req.params.slug, req.body);
      setEntityTag(reply, entry);
      reply.code(201);
      return ok(toWireEntry(entry));
    },
  );

  r.patch(
    `${base}/bulk`,
    {
      config: { action: 'content:publish' },
      schema: {
        operationId: 'bulkEntryAction',
        tags,
        summary: 'Publish, unpublish, archive or schedule up to 100 entries',
        description: 'Each id succeeds or fails alone: failures are listed in `data.failed` with a reason, never as an error status (D23).',
        params: TypeParams,
        body: BulkActionBody,
        response: { 200: EnvelopeOf(BulkResultSchema) },
      },
    },
    async (req) => ok(await bulkEntryAction(ctx, req.actor, req.params.slug, req.body)),
  );

  r.delete(
    `${base}/bulk`,
    {
      config: { action: 'content:write' },
      schema: {
        operationId: 'bulkDeleteEntries',
        tags,
        summary: 'Delete up to 100 entries',
        description: 'Each id succeeds or fails alone: failures are listed in `data.failed` with a reason (D23).',
        params: TypeParams,
        body: BulkDeleteBody,
        response: { 200: EnvelopeOf(BulkResultSchema) },
      },
    },
    async (req) => ok(await bulkDeleteEntries(ctx, req.actor, req.params.slug, req.body.ids)),
  );

  r.patch(
    `${base}/reorder`,
    {
      config: { action: 'content:write' },
      schema: {
        operationId: 'reorderEntries',
        tags,
        summary: 'Reorder the entries of an orderable content type (complete list)',
        description: '`order` lists every entry id of the content type exactly once (D34); a content type that is not orderable answers 400.',
        params: TypeParams,
        body: EntryReorderBody,
        response: { 200: EmptyEnvelope },
      },
    },
    async (req) => {
      await reorderEntries(ctx, req.actor, req.params.slug, req.body.order);
      return ok(null);
    },
  );

  r.get(
    `${base}/:entry_slug`,
    {
      schema: {
        operationId: 'getEntry',
        tags,
        summary: 'Get an entry (any status)',
        description:
          'The working copy with its translations, `has_pending_changes` and `published_version`; the ETag serves `If-Match` on later writes. With `release`, the content is the entry’s release version in that release (docs/releases.md); the ETag stays the entry’s.',
        params: EntryParams,
        querystring: Type.Object(ReleaseQuery, { additionalProperties: false }),
        response: { 200: EnvelopeOf(EntrySchema) },
        etag: true,
      },
    },
    async (req, reply) => {
      const ref = { slug: req.params.entry_slug };
      const entry =
        req.query.release !== undefined
          ? await getEntryVariant(ctx, req.actor, req.params.slug, ref, req.query.release)
          : await getEntry(ctx, req.actor, req.params.slug, ref);
      setEntityTag(reply, entry);
      const workflows = await itemWorkflows(ctx, req.actor, 'entry', [entry]);
      return ok({ ...toWireEntry(entry), workflow: workflows.get(entry.id) ?? null });
    },
  );

  r.put(
    `${base}/:entry_slug`,
    {
      config: { action: 'content:write' },
      schema: {
        operationId: 'updateEntry',
        tags,
        summary: "Replace an entry's data (and translations when given)",
        description:
          'Replaces the working copy. A published entry stays published and shows `has_pending_changes` while its working copy differs from the published version (D70). With `If-Match`, a stale ETag answers 412 and nothing changes (D5). With `release`, replaces the entry’s release version in that release instead (docs/releases.md); the working copy is untouched.',
        errors: ['SLUG_TAKEN', 'UNIQUE_VIOLATION', 'PRECONDITION_FAILED'],
        etag: true,
        params: EntryParams,
        querystring: Type.Object(ReleaseQuery, { additionalProperties: false }),
        body: EntryWriteBody,
        response: { 200: EnvelopeOf(EntrySchema) },
      },
    },
    async (req, reply) => {
      if (req.query.release !== undefined) {
        const variant = await updateEntryVariant(ctx, req.actor, req.params.slug, { slug: req.params.entry_slug }, req.query.release, req.body);
        setEntityTag(reply, variant);
        return ok(toWireEntry(variant));
      }
      const entry = await updateEntry(ctx, req.actor, req.params.slug, { slug: req.params.entry_slug }, req.body, { ifMatch: ifMatchOf(req) });
      setEntityTag(reply, entry);
      return ok(toWireEntry(entry));
    },
  );

  r.delete(
    `${base}/:entry_slug`,
    {
      config: { action: 'content:write' },
      schema: {
        operationId: 'deleteEntry',
        tags,
        summary: 'Delete an entry',
        description: 'Deletes the entry, its translations and its history. With `If-Match`, a stale ETag answers 412.',
        params: EntryParams,
        response: { 200: EmptyEnvelope },
        errors: ['PRECONDITION_FAILED'],
      },
    },
    async (req) => {
      await deleteEntry(ctx, req.actor, req.params.slug, { slug: req.params.entry_slug }, { ifMatch: ifMatchOf(req) });
      return ok(null);
    },
  );

  r.post(
    `${base}/:entry_slug/duplicate`,
    {
      config: { action: 'content:write' },
      schema: {
        operationId: 'duplicateEntry',
        tags,
        summary: 'Duplicate an entry as a draft',
        description: 'A new draft with the same data and translations, slug `<slug>-copy` (then `-copy-2`, …), placed last (D26).',
        params: EntryParams,
        response: { 201: EnvelopeOf(EntrySchema) },
        etag: true,
      },
    },
    async (req, reply) => {
      const entry = await duplicateEntry(ctx, req.actor, req.params.slug, { slug: req.params.entry_slug });
      setEntityTag(reply, entry);
      reply.code(201);
      return ok(toWireEntry(entry));
    },
  );

  for (const verb of ['publish', 'unpublish', 'archive'] as const satisfies readonly Verb[]) {
    r.patch(
      `${base}/:entry_slug/${verb}`,
      {
        config: { action: 'content:publish' },
        schema: {
          operationId: `${verb}Entry`,
          tags,
          summary: `${verb[0].toUpperCase()}${verb.slice(1)} an entry`,
          description: `${STATE_ACTIONS[verb]} Actions the state machine refuses answer 409 INVALID_STATE_TRANSITION (D20, D71); with \`If-Match\`, a stale ETag answers 412.`,
          params: EntryParams,
          response: { 200: EmptyEnvelope },
          errors: ['INVALID_STATE_TRANSITION', 'PRECONDITION_FAILED'],
          etag: true,
        },
      },
      async (req, reply) => {
        const entry = await changeEntryStatus(ctx, req.actor, req.params.slug, { slug: req.params.entry_slug }, verb, { ifMatch: ifMatchOf(req) });
        setEntityTag(reply, entry);
        return ok(null);
      },
    );
  }

  r.patch(
    `${base}/:entry_slug/schedule`,
    {
      config: { action: 'content:publish' },
      schema: {
        operationId: 'scheduleEntry',
        tags,
        summary: 'Schedule an entry for publication',
        description:
          'Publishes the working copy at `publish_at` (in the future), without further requests (D21); from draft, archived or scheduled. Refused transitions answer 409; a stale `If-Match` 412.',
        params: EntryParams,
        body: ScheduleBody,
        response: { 200: EmptyEnvelope },
        errors: ['INVALID_STATE_TRANSITION', 'PRECONDITION_FAILED'],
        etag: true,
      },
    },
    async (req, reply) => {
      const entry = await changeEntryStatus(ctx, req.actor, req.params.slug, { slug: req.params.entry_slug }, 'schedule', {
        ifMatch: ifMatchOf(req),
        publishAt: req.body.publish_at,
      });
      setEntityTag(reply, entry);
      return ok(null);
    },
  );

  r.get(
    `${base}/:entry_slug/versions`,
    {
      schema: {
        operationId: 'listEntryVersions',
        tags,
        summary: 'List an entry’s versions, newest first (no snapshots)',
        description:
          'Every write that changed the entry’s content or state appended a version (D72). Offset pages carry totals; `cursor` (a previous page’s `meta.next_cursor`) gives the next page by keyset, without totals.',
        errors: ['PAGE_TOO_DEEP'],
        params: EntryParams,
        querystring: VersionListQuery,
        response: { 200: EnvelopeOf(Type.Array(VersionSchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, meta } = await listEntryVersions(ctx, req.actor, req.params.slug, { slug: req.params.entry_slug }, req.query);
      return ok(items, meta);
    },
  );

  r.get(
    `${base}/:entry_slug/versions/:version`,
    {
      schema: {
        operationId: 'getEntryVersion',
        tags,
        summary: 'Get an entry as one version holds it (the version in meta)',
        description: 'The snapshot of one version in the wire shape of an entry; `meta` describes the version (D72).',
        params: EntryVersionParams,
        response: { 200: EnvelopeOf(EntrySchema, VersionSchema) },
      },
    },
    async (req) => {
      const { entry, version } = await getEntryVersion(ctx, req.actor, req.params.slug, { slug: req.params.entry_slug }, req.params.version);
      return ok(toWireEntry(entry), version);
    },
  );

  r.post(
    `${base}/:entry_slug/versions/:version/restore`,
    {
      config: { action: 'content:write' },
      schema: {
        operationId: 'restoreEntryVersion',
        tags,
        summary: 'Make a version the entry’s working copy (a new version, status unchanged)',
        description:
          'The working copy becomes the snapshot of that version, recorded as a new `restore` version; a published entry then has pending changes (D72). A snapshot that no longer fits the content model answers 400.',
        errors: ['UNIQUE_VIOLATION', 'PRECONDITION_FAILED'],
        etag: true,
        params: EntryVersionParams,
        response: { 200: EnvelopeOf(EntrySchema) },
      },
    },
    async (req, reply) => {
      const entry = await restoreEntryVersion(ctx, req.actor, req.params.slug, { slug: req.params.entry_slug }, req.params.version, {
        ifMatch: ifMatchOf(req),
      });
      setEntityTag(reply, entry);
      return ok(toWireEntry(entry));
    },
  );
}
