/**
 * Comments on entries and pages (docs/workflow.md "Comments"): `GET|POST
 * /content-types/{slug}/entries/{entry_slug}/comments` (the entry by slug or id),
 * `GET|POST /pages/{slug}/comments` (the page by slug or id), `PATCH|DELETE /comments/{id}`.
 * Reading the item is enough to comment (no scope); the operations check text, author and
 * deletion rights. Parse, call, reply.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../../context.js';
import { addComment, deleteComment, entryItem, listComments, pageItem, updateComment } from '../../../modules/comments/operations.js';
import { EmptyEnvelope, EnvelopeOf, ok } from '../../envelope.js';
import {
  CommentCreateBody,
  CommentListQuery,
  CommentParams,
  CommentPatchBody,
  CommentSchema,
  EntryCommentParams,
  PageCommentParams,
} from '../../schemas/comments.js';

const TAGS = ['Management: comments'];
const CREATE_DESCRIPTION =
  "Anyone who may read the item may comment (viewers too). `field` anchors the comment to a field path (an entry's field; a page's `title`, `slug`, `seo.<key>` or `blocks.<blockId>.<field>`), `locale` to a workspace locale: a wrong one answers 400 VALIDATION_FAILED at `body.field` / `body.locale` naming it. `parent_id` makes it a reply in that thread (threads are one level deep). `@email` tokens naming members of the workspace become `mentions` and notify them.";

export async function commentRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/content-types/:slug/entries/:entry_slug/comments',
    {
      schema: {
        tags: TAGS,
        operationId: 'listEntryComments',
        summary: "An entry's comments, oldest first (`status`: open, resolved or all threads)",
        params: EntryCommentParams,
        querystring: CommentListQuery,
        response: { 200: EnvelopeOf(Type.Array(CommentSchema)) },
      },
    },
    async (req) => ok(await listComments(ctx, req.actor, await entryItem(ctx, req.actor, req.params.slug, req.params.entry_slug), req.query.status)),
  );

  r.post(
    '/content-types/:slug/entries/:entry_slug/comments',
    {
      schema: {
        tags: TAGS,
        operationId: 'createEntryComment',
        summary: 'Comment on an entry',
        description: CREATE_DESCRIPTION,
        params: EntryCommentParams,
        body: CommentCreateBody,
        response: { 201: EnvelopeOf(CommentSchema) },
      },
    },
    async (req, reply) => {
      const comment = await addComment(ctx, req.actor, await entryItem(ctx, req.actor, req.params.slug, req.params.entry_slug), req.body);
      reply.code(201);
      return ok(comment);
    },
  );

  r.get(
    '/pages/:slug/comments',
    {
      schema: {
        tags: TAGS,
        operationId: 'listPageComments',
        summary: "A page's comments, oldest first (`status`: open, resolved or all threads)",
        params: PageCommentParams,
        querystring: CommentListQuery,
        response: { 200: EnvelopeOf(Type.Array(CommentSchema)) },
      },
    },
    async (req) => ok(await listComments(ctx, req.actor, await pageItem(ctx, req.actor, req.params.slug), req.query.status)),
  );

  r.post(
    '/pages/:slug/comments',
    {
      schema: {
        tags: TAGS,
        operationId: 'createPageComment',
        summary: 'Comment on a page',
        description: CREATE_DESCRIPTION,
        params: PageCommentParams,
        body: CommentCreateBody,
        response: { 201: EnvelopeOf(CommentSchema) },
      },
    },
    async (req, reply) => {
      const comment = await addComment(ctx, req.actor, await pageItem(ctx, req.actor, req.params.slug), req.body);
      reply.code(201);
      return ok(comment);
    },
  );

  r.patch(
    '/comments/:id',
    {
      schema: {
        tags: TAGS,
        operationId: 'updateComment',
        summary: "Change a comment's text (its author only) or resolve / reopen its thread (anyone who may comment)",
        description:
          'A reply answers 400 at `body.resolved`: its thread is resolved on its first comment. People newly mentioned by a changed text are notified.',
        params: CommentParams,
        body: CommentPatchBody,
        response: { 200: EnvelopeOf(CommentSchema) },
      },
    },
    async (req) => ok(await updateComment(ctx, req.actor, req.params.id, req.body)),
  );

  r.delete(
    '/comments/:id',
    {
      schema: {
        tags: TAGS,
        operationId: 'deleteComment',
        summary: 'Delete a comment and its replies (its author, owners and admins)',
        params: CommentParams,
        response: { 200: EmptyEnvelope },
      },
    },
    async (req) => {
      await deleteComment(ctx, req.actor, req.params.id);
      return ok(null);
    },
  );
}
