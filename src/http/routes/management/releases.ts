/**
 * Management routes for releases (docs/releases.md; D110–D113): the releases, their items,
 * publication, schedule and revert. Reads need any management key or session; writes name their
 * action (the rule is src/modules/access/authorize.ts). Parse, call, reply.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { offsetMeta } from '../../../lib/pagination.js';
import {
  addReleaseItem,
  createRelease,
  deleteRelease,
  getRelease,
  listReleaseItems,
  listReleases,
  removeReleaseItem,
  scheduleRelease,
  unscheduleRelease,
  updateRelease,
} from '../../../modules/releases/operations.js';
import { publishRelease, revertRelease, validateRelease } from '../../../modules/releases/publication.js';
import { EmptyEnvelope, EnvelopeOf, ok, PageMeta } from '../../envelope.js';
import {
  AddReleaseItemBody,
  CreateReleaseBody,
  ReleaseItemParams,
  ReleaseItemSchema,
  ReleaseListQuery,
  ReleaseParams,
  ReleaseSchema,
  ReleaseValidationSchema,
  RevertReleaseBody,
  ScheduleReleaseBody,
  UpdateReleaseBody,
} from '../../schemas/releases.js';

const tags = ['Management: releases'];
const write = 'releases:write' as const;
const publish = 'releases:publish' as const;

export async function releaseRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/releases',
    {
      schema: {
        tags,
        operationId: 'listReleases',
        summary: 'List releases, newest first',
        errors: ['PAGE_TOO_DEEP'],
        querystring: ReleaseListQuery,
        response: { 200: EnvelopeOf(Type.Array(ReleaseSchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, total, window } = await listReleases(ctx, req.actor, req.query);
      return ok(items, offsetMeta(window, total, items.length));
    },
  );

  r.post(
    '/releases',
    {
      config: { action: write },
      schema: { tags, operationId: 'createRelease', summary: 'Create an open release', body: CreateReleaseBody, response: { 201: EnvelopeOf(ReleaseSchema) } },
    },
    async (req, reply) => {
      reply.code(201);
      return ok(await createRelease(ctx, req.actor, req.body));
    },
  );

  r.get(
    '/releases/:id',
    { schema: { tags, operationId: 'getRelease', summary: 'One release', params: ReleaseParams, response: { 200: EnvelopeOf(ReleaseSchema) } } },
    async (req) => ok(await getRelease(ctx, req.actor, req.params.id)),
  );

  r.patch(
    '/releases/:id',
    {
      config: { action: write },
      schema: {
        tags,
        operationId: 'updateRelease',
        summary: 'Change the title or description',
        params: ReleaseParams,
        body: UpdateReleaseBody,
        response: { 200: EnvelopeOf(ReleaseSchema) },
      },
    },
    async (req) => ok(await updateRelease(ctx, req.actor, req.params.id, req.body)),
  );

  r.delete(
    '/releases/:id',
    {
      config: { action: write },
      schema: {
        tags,
        operationId: 'deleteRelease',
        summary: 'Delete an open, scheduled or failed release and its release versions',
        errors: ['INVALID_STATE_TRANSITION'],
        params: ReleaseParams,
        response: { 200: EmptyEnvelope },
      },
    },
    async (req) => {
      await deleteRelease(ctx, req.actor, req.params.id);
      return ok(null);
    },
  );

  r.get(
    '/releases/:id/items',
    {
      schema: {
        tags,
        operationId: 'listReleaseItems',
        summary: 'The items of a release, with base_version and conflict',
        params: ReleaseParams,
        response: { 200: EnvelopeOf(Type.Array(ReleaseItemSchema)) },
      },
    },
    async (req) => ok(await listReleaseItems(ctx, req.actor, req.params.id)),
  );

  r.post(
    '/releases/:id/items',
    {
      config: { action: write },
      schema: {
        tags,
        operationId: 'addReleaseItem',
        summary: 'Add an entry or page to publish or unpublish',
        description:
          'A `publish` item copies the working copy as the item’s release version, read and written with `?release={id}` on the item’s endpoints. At most 1,000 items (409 RELEASE_TOO_LARGE).',
        errors: ['RELEASE_TOO_LARGE', 'INVALID_STATE_TRANSITION'],
        params: ReleaseParams,
        body: AddReleaseItemBody,
        response: { 200: EnvelopeOf(ReleaseItemSchema) },
      },
    },
    async (req) => ok(await addReleaseItem(ctx, req.actor, req.params.id, req.body)),
  );

  r.delete(
    '/releases/:id/items/:kind/:item_id',
    {
      config: { action: write },
      schema: {
        tags,
        operationId: 'removeReleaseItem',
        summary: 'Take an item (and its release version) out of the release',
        errors: ['INVALID_STATE_TRANSITION'],
        params: ReleaseItemParams,
        response: { 200: EmptyEnvelope },
      },
    },
    async (req) => {
      await removeReleaseItem(ctx, req.actor, req.params.id, req.params.kind, req.params.item_id);
      return ok(null);
    },
  );

  r.get(
    '/releases/:id/validation',
    {
      schema: {
        tags,
        operationId: 'validateRelease',
        summary: 'What would keep the release from being published now',
        description:
          'The checks of a publication (required fields, unique values, relations, unpublish items), without publishing: `problems` lists what a publish now would refuse with 422 RELEASE_INVALID, empty when it would go live.',
        errors: ['INVALID_STATE_TRANSITION'],
        params: ReleaseParams,
        response: { 200: EnvelopeOf(ReleaseValidationSchema) },
      },
    },
    async (req) => {
      const problems = await validateRelease(ctx, req.actor, req.params.id);
      return ok({ valid: problems.length === 0, problems });
    },
  );

  r.post(
    '/releases/:id/publish',
    {
      config: { action: publish },
      schema: {
        tags,
        operationId: 'publishRelease',
        summary: 'Publish every item at once, all or nothing',
        description: 'Checks the release as it will be; 422 RELEASE_INVALID lists every item and field that keeps it from going live, and nothing changes.',
        errors: ['RELEASE_INVALID', 'INVALID_STATE_TRANSITION'],
        params: ReleaseParams,
        response: { 200: EnvelopeOf(ReleaseSchema) },
      },
    },
    async (req) => {
      await publishRelease(ctx, req.actor, req.params.id);
      return ok(await getRelease(ctx, req.actor, req.params.id));
    },
  );

  r.post(
    '/releases/:id/schedule',
    {
      config: { action: publish },
      schema: {
        tags,
        operationId: 'scheduleRelease',
        summary: 'Schedule the publication at publish_at',
        errors: ['INVALID_STATE_TRANSITION'],
        params: ReleaseParams,
        body: ScheduleReleaseBody,
        response: { 200: EnvelopeOf(ReleaseSchema) },
      },
    },
    async (req) => ok(await scheduleRelease(ctx, req.actor, req.params.id, req.body.publish_at)),
  );

  r.post(
    '/releases/:id/unschedule',
    {
      config: { action: publish },
      schema: {
        tags,
        operationId: 'unscheduleRelease',
        summary: 'Cancel the schedule (back to open)',
        errors: ['INVALID_STATE_TRANSITION'],
        params: ReleaseParams,
        response: { 200: EnvelopeOf(ReleaseSchema) },
      },
    },
    async (req) => ok(await unscheduleRelease(ctx, req.actor, req.params.id)),
  );

  r.post(
    '/releases/:id/revert',
    {
      config: { action: publish },
      // The body is optional: a request without one reverts without force.
      preValidation: async (req) => {
        if (req.body === undefined || req.body === null) req.body = {};
      },
      schema: {
        tags,
        operationId: 'revertRelease',
        summary: 'Publish what each item was before the release',
        description: 'Items published again since the release answer 409 RELEASE_CONFLICT listing them, unless `{"force": true}`.',
        errors: ['RELEASE_CONFLICT', 'INVALID_STATE_TRANSITION'],
        params: ReleaseParams,
        body: RevertReleaseBody,
        response: { 200: EnvelopeOf(ReleaseSchema) },
      },
    },
    async (req) => {
      await revertRelease(ctx, req.actor, req.params.id, { force: req.body.force });
      return ok(await getRelease(ctx, req.actor, req.params.id));
    },
  );
}
