/**
 * Management routes for entries (api.md "Entries"; DECISIONS.md D1, D5, D23). Parse, call, reply.
 * Responses about one entry carry `ETag: "<id>-<version>"`; PUT, DELETE and the state actions
 * honour `If-Match` (412 when stale). The static `/entries/bulk` and `/entries/reorder` routes
 * win over `/entries/:entry_slug` (find-my-way prefers static segments); those two slugs are
 * reserved for entries.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { offsetMeta } from '../../../lib/pagination.js';
import { bulkDeleteEntries, bulkEntryAction } from '../../../modules/entries/bulk.js';
import { toWireEntry } from '../../wire/entries.js';
import { createEntry, deleteEntry, duplicateEntry, getEntry, listEntries, reorderEntries, updateEntry } from '../../../modules/entries/operations.js';
import { changeEntryStatus, getEntryVersion, listEntryVersions, restoreEntryVersion } from '../../../modules/entries/publishing.js';
import type { Verb } from '../../../modules/publishing/states.js';
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
const base = '/content-types/:slug/entries';

export async function entryRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    base,
    {
      schema: {
        tags,
        summary: 'List entries of a content type (every status; search by display field or slug; offset or cursor pages)',
        params: TypeParams,
        querystring: EntryListQuery,
        response: { 200: EnvelopeOf(Type.Array(EntrySchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, meta } = await listEntries(ctx, req.actor, req.params.slug, req.query);
      return ok(items.map(toWireEntry), meta);
    },
  );

  r.post(
    base,
    {
      config: { scope: 'content:write' },
      schema: { tags, summary: 'Create a draft entry', params: TypeParams, body: EntryWriteBody, response: { 201: EnvelopeOf(EntrySchema) } },
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
      config: { scope: 'content:publish' },
      schema: {
        tags,
        summary: 'Publish, unpublish, archive or schedule up to 100 entries',
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
      config: { scope: 'content:write' },
      schema: { tags, summary: 'Delete up to 100 entries', params: TypeParams, body: BulkDeleteBody, response: { 200: EnvelopeOf(BulkResultSchema) } },
    },
    async (req) => ok(await bulkDeleteEntries(ctx, req.actor, req.params.slug, req.body.ids)),
  );

  r.patch(
    `${base}/reorder`,
    {
      config: { scope: 'content:write' },
      schema: {
        tags,
        summary: 'Reorder the entries of an orderable content type (complete list)',
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
      schema: { tags, summary: 'Get an entry (any status)', params: EntryParams, response: { 200: EnvelopeOf(EntrySchema) } },
    },
    async (req, reply) => {
      const entry = await getEntry(ctx, req.actor, req.params.slug, { slug: req.params.entry_slug });
      setEntityTag(reply, entry);
      return ok(toWireEntry(entry));
    },
  );

  r.put(
    `${base}/:entry_slug`,
    {
      config: { scope: 'content:write' },
      schema: {
        tags,
        summary: "Replace an entry's data (and translations when given)",
        params: EntryParams,
        body: EntryWriteBody,
        response: { 200: EnvelopeOf(EntrySchema) },
      },
    },
    async (req, reply) => {
      const entry = await updateEntry(ctx, req.actor, req.params.slug, { slug: req.params.entry_slug }, req.body, { ifMatch: ifMatchOf(req) });
      setEntityTag(reply, entry);
      return ok(toWireEntry(entry));
    },
  );

  r.delete(
    `${base}/:entry_slug`,
    {
      config: { scope: 'content:write' },
      schema: { tags, summary: 'Delete an entry', params: EntryParams, response: { 200: EmptyEnvelope } },
    },
    async (req) => {
      await deleteEntry(ctx, req.actor, req.params.slug, { slug: req.params.entry_slug }, { ifMatch: ifMatchOf(req) });
      return ok(null);
    },
  );

  r.post(
    `${base}/:entry_slug/duplicate`,
    {
      config: { scope: 'content:write' },
      schema: { tags, summary: 'Duplicate an entry as a draft', params: EntryParams, response: { 201: EnvelopeOf(EntrySchema) } },
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
        config: { scope: 'content:publish' },
        schema: { tags, summary: `${verb[0].toUpperCase()}${verb.slice(1)} an entry`, params: EntryParams, response: { 200: EmptyEnvelope } },
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
      config: { scope: 'content:publish' },
      schema: { tags, summary: 'Schedule an entry for publication', params: EntryParams, body: ScheduleBody, response: { 200: EmptyEnvelope } },
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
        tags,
        summary: 'List an entry’s versions, newest first (no snapshots)',
        params: EntryParams,
        querystring: VersionListQuery,
        response: { 200: EnvelopeOf(Type.Array(VersionSchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, total, window } = await listEntryVersions(ctx, req.actor, req.params.slug, { slug: req.params.entry_slug }, req.query);
      return ok(items, offsetMeta(window, total, items.length));
    },
  );

  r.get(
    `${base}/:entry_slug/versions/:version`,
    {
      schema: {
        tags,
        summary: 'Get an entry as one version holds it (the version in meta)',
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
      config: { scope: 'content:write' },
      schema: {
        tags,
        summary: 'Make a version the entry’s working copy (a new version, status unchanged)',
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
