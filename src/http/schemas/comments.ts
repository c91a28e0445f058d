/**
 * Wire shapes of comments (docs/workflow.md "Comments"): one schema per shape, giving the
 * TypeScript type, the validation and the OpenAPI document. Field paths and locales are strings
 * here: the operation (src/modules/comments/operations.ts) checks them against the item and
 * names the path of each problem.
 */
import { Type, type Static } from '@sinclair/typebox';
import { NullableString, NullableTimestamp, SlugParam, Timestamp } from './common.js';
import { PersonSchema } from './notifications.js';

export const CommentSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    item: Type.Object({
      kind: Type.Union([Type.Literal('entry'), Type.Literal('page')]),
      id: Type.String(),
      content_type: NullableString,
      slug: Type.String(),
    }),
    field: Type.Union([Type.String(), Type.Null()], {
      description: "the field path it is about: an entry's field, or a page's `title`, `slug`, `seo.<key>`, `blocks.<blockId>.<field>`; null: the whole item",
    }),
    locale: NullableString,
    parent_id: Type.Union([Type.String(), Type.Null()], { description: "the thread's first comment, for a reply" }),
    body: Type.String({ description: 'plain text' }),
    author: Type.Union([PersonSchema, Type.Null()], { description: 'null once the account is deleted' }),
    mentions: Type.Array(PersonSchema, { description: 'members named by `@email` in the text' }),
    resolved: Type.Boolean({ description: "the thread's state (replies show their thread's)" }),
    resolved_by: Type.Union([PersonSchema, Type.Null()]),
    resolved_at: NullableTimestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
    edited: Type.Boolean({ description: 'the text changed after it was written' }),
  },
  { title: 'Comment' },
);
export type CommentWire = Static<typeof CommentSchema>;

export const CommentCreateBody = Type.Object(
  {
    body: Type.String({ minLength: 1, maxLength: 10000, description: 'plain text, 1 to 10,000 characters; `@email` mentions a member' }),
    field: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 300 }), Type.Null()])),
    locale: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 35 }), Type.Null()])),
    parent_id: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const CommentPatchBody = Type.Object(
  {
    body: Type.Optional(Type.String({ minLength: 1, maxLength: 10000, description: 'the new text (its author only)' })),
    resolved: Type.Optional(Type.Boolean({ description: 'resolve (true) or reopen (false) the thread; on its first comment' })),
  },
  { additionalProperties: false },
);

export const CommentListQuery = Type.Object(
  { status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('resolved'), Type.Literal('all')], { description: 'default all' })) },
  { additionalProperties: false },
);

export const CommentParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const EntryCommentParams = Type.Object({ slug: SlugParam, entry_slug: SlugParam });
export const PageCommentParams = Type.Object({ slug: SlugParam });
