/**
 * Wire schemas of releases (docs/releases.md; D110–D113): the release, its items, and the bodies
 * of its endpoints.
 */
import { Type, type Static } from '@sinclair/typebox';
import { PageQuery, Timestamp } from './common.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const Problem = Type.Object({ path: Type.String(), message: Type.String() });

export const ReleaseSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    description: Nullable(Type.String()),
    status: Type.Unsafe<'open' | 'scheduled' | 'published' | 'failed'>(Type.String({ enum: ['open', 'scheduled', 'published', 'failed'] })),
    publish_at: Nullable(Timestamp),
    published_at: Nullable(Timestamp),
    reverted_at: Type.Union([Timestamp, Type.Null()], { description: 'when the release was reverted; null otherwise' }),
    failure: Type.Union([Type.Array(Problem), Type.Null()], { description: 'status `failed`: why its scheduled publication was refused' }),
    items_count: Type.Integer({ minimum: 0 }),
    created_at: Timestamp,
    updated_at: Timestamp,
    created_by: Nullable(Type.Integer()),
  },
  { $id: 'Release', title: 'Release' },
);
export type ReleaseWire = Static<typeof ReleaseSchema>;

export const ReleaseItemSchema = Type.Object(
  {
    kind: Type.Unsafe<'entry' | 'page'>(Type.String({ enum: ['entry', 'page'] })),
    id: Type.String({ format: 'uuid', description: 'the entry or page' }),
    slug: Type.String(),
    content_type: Type.Union([Type.String(), Type.Null()], { description: 'an entry’s content type slug; null for pages' }),
    action: Type.Unsafe<'publish' | 'unpublish'>(Type.String({ enum: ['publish', 'unpublish'] })),
    base_version: Type.Integer({ description: 'the history version the release version was copied from (unpublish: the newest version when added)' }),
    conflict: Type.Boolean({ description: 'the item was published after its release version was copied (before the release was published)' }),
    status: Type.String({ description: 'the item’s status now' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'ReleaseItem', title: 'ReleaseItem' },
);
export type ReleaseItemWire = Static<typeof ReleaseItemSchema>;

/** GET /releases/{id}/validation: what a publication now would refuse (its 422's `errors`). */
export const ReleaseValidationSchema = Type.Object(
  {
    valid: Type.Boolean({ description: 'true when a publication now would go live' }),
    problems: Type.Array(Problem, { description: 'every problem, at `<kind>.<id>.<field path>`, as a 422 RELEASE_INVALID lists them' }),
  },
  { $id: 'ReleaseValidation', title: 'ReleaseValidation' },
);

export const CreateReleaseBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  { additionalProperties: false },
);
export type CreateReleaseInput = Static<typeof CreateReleaseBody>;

export const UpdateReleaseBody = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  { additionalProperties: false },
);
export type UpdateReleaseInput = Static<typeof UpdateReleaseBody>;

export const AddReleaseItemBody = Type.Object(
  {
    kind: Type.Unsafe<'entry' | 'page'>(Type.String({ enum: ['entry', 'page'] })),
    id: Type.String({ format: 'uuid' }),
    action: Type.Unsafe<'publish' | 'unpublish'>(Type.String({ enum: ['publish', 'unpublish'] })),
  },
  { additionalProperties: false },
);
export type AddReleaseItemInput = Static<typeof AddReleaseItemBody>;

export const ScheduleReleaseBody = Type.Object({ publish_at: Type.String({ description: 'ISO 8601 time in the future' }) }, { additionalProperties: false });
export const RevertReleaseBody = Type.Object(
  { force: Type.Optional(Type.Boolean({ description: 'revert even items published again since the release' })) },
  { additionalProperties: false },
);

export const ReleaseParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const ReleaseItemParams = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: Type.Unsafe<'entry' | 'page'>(Type.String({ enum: ['entry', 'page'] })),
  item_id: Type.String({ format: 'uuid' }),
});

export const ReleaseListQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(Type.Unsafe<'open' | 'scheduled' | 'published' | 'failed'>(Type.String({ enum: ['open', 'scheduled', 'published', 'failed'] }))),
  },
  { additionalProperties: false },
);

/** `?release={id}` on the item endpoints and on delivery (D111). */
export const ReleaseQuery = {
  release: Type.Optional(Type.String({ format: 'uuid', description: 'read (or write) the release version of the item in this release (docs/releases.md)' })),
};
