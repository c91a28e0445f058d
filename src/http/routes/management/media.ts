/**
 * Management routes for media (docs/api.md "Media (management)"; docs/media.md "Uploading" (D50),
 * "URLs" (D51),
 * "Storage" (D52)). Parse, call, reply.
 * The upload route lives in its own encapsulated scope, the only one where multipart bodies are
 * parsed (@fastify/multipart, file parts streamed to disk, limit MEDIA_MAX_BYTES); everywhere
 * else the API stays JSON with its 1 MB limit.
 */
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { AppError } from '../../../errors.js';
import { offsetMeta } from '../../../lib/pagination.js';
import { checkWorkspaceHeader, deleteMedia, getMedia, listMedia, updateMedia, uploadMedia } from '../../../modules/media/operations.js';
import { listMediaFolders } from '../../../modules/media/library.js';
import { createUploadGate, tooLarge } from '../../../modules/media/spool.js';
import { mediaUsage } from '../../../modules/media/usage.js';
import { multipartLimits, readUploadForm, type FormPart } from '../../../modules/media/upload-form.js';
import { EmptyEnvelope, EnvelopeOf, ok, PageMeta } from '../../envelope.js';
import { validatorCompiler } from '../../validator.js';
import {
  MediaAssetSchema,
  MediaFolderSchema,
  MediaIdParams,
  MediaListQuery,
  MediaUsageSchema,
  UpdateMediaBody,
  UploadFormDoc,
  WorkspaceHeaders,
} from '../../schemas/media.js';
import { claimAfterBody } from '../../idempotency.js';

const tags = ['Management: media'];
/** Room for the multipart framing and the text parts around the file. */
export const FORM_OVERHEAD_BYTES = 64 * 1024;

/** Registers the management media routes (upload in its own multipart scope) on `app`. */
export async function mediaRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const maxBytes = ctx.config.mediaMaxBytes;
  // A few uploads receive at a time, so that many at once never stall the event loop
  // (src/modules/media/spool.ts).
  const gate = createUploadGate();

  await app.register(async (scope) => {
    await scope.register(multipart, { limits: multipartLimits(maxBytes), throwFileSizeLimit: false });
    // The multipart body is read by the handler; its schema below documents the form only.
    scope.setValidatorCompiler((route) => (route.httpPart === 'body' ? () => true : validatorCompiler(route)));
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      '/media/upload',
      {
        config: { action: 'media:write' },
        bodyLimit: maxBytes + FORM_OVERHEAD_BYTES,
        // The handler reads the multipart body itself: give it the time to receive it as well.
        handlerTimeout: ctx.config.httpRequestTimeoutMs + ctx.config.httpHandlerTimeoutMs,
        schema: {
          tags,
          operationId: 'uploadMedia',
          summary: "Upload a file (multipart/form-data; into the key's workspace)",
          consumes: ['multipart/form-data'],
          headers: WorkspaceHeaders,
          body: UploadFormDoc,
          response: { 201: EnvelopeOf(MediaAssetSchema) },
        },
      },
      async (req, reply) => {
        const declared = Number(req.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes + FORM_OVERHEAD_BYTES) throw tooLarge(maxBytes);
        if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the upload as multipart/form-data with the file in the part named file');
        const header = req.headers['x-workspace-id'];
        // Before reading a byte of the body: a wrong workspace never gets its file spooled. The
        // workspace is the key's (or the session's): the header is only checked when sent.
        checkWorkspaceHeader(req.actor, header);
        // The SHA-256 of the file is the upload's identity for an Idempotency-Key, and only then
        // worth its cost.
        const hash = req.idempotencyDeferredKey != null;
        // A client that goes away while its upload waits leaves the queue at once (req.signal).
        const form = await gate.run(async () => {
          // Its body will never come: the error handler logs the abort (at info) and answers nobody.
          if (req.raw.destroyed) throw new Error('the client closed the connection while its upload waited');
          return readUploadForm(ctx.config, req.parts() as AsyncIterable<FormPart>, maxBytes, { hash });
        }, req.signal);
        let replayed: boolean;
        try {
          replayed = await claimAfterBody(ctx, req, reply, {
            // The key's workspace, whether the header named it or not: both requests are the same upload.
            workspace: req.actor.workspaceId,
            sha256: form.file.sha256,
            name: form.originalName,
            fields: form.fields,
          });
        } catch (err) {
          await form.file.dispose();
          throw err;
        }
        if (replayed) {
          await form.file.dispose();
          return reply;
        }
        const asset = await uploadMedia(ctx, req.actor, header, { file: form.file, originalName: form.originalName, ...form.fields });
        reply.code(201);
        return ok(asset);
      },
    );
  });

  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/media',
    {
      schema: {
        tags,
        operationId: 'listMedia',
        errors: ['PAGE_TOO_DEEP'],
        summary: 'List media (newest first; folder, kind, text search and missing alt text filters)',
        headers: WorkspaceHeaders,
        querystring: MediaListQuery,
        response: { 200: EnvelopeOf(Type.Array(MediaAssetSchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, total, window } = await listMedia(ctx, req.actor, req.headers['x-workspace-id'], req.query);
      return ok(items, offsetMeta(window, total, items.length));
    },
  );

  r.get(
    '/media/folders',
    {
      schema: {
        tags,
        operationId: 'listMediaFolders',
        summary: 'List the folders holding assets, with how many each holds directly',
        headers: WorkspaceHeaders,
        response: { 200: EnvelopeOf(Type.Array(MediaFolderSchema)) },
      },
    },
    async (req) => ok(await listMediaFolders(ctx, req.actor, req.headers['x-workspace-id'])),
  );

  r.get(
    '/media/:id/usage',
    {
      schema: {
        tags,
        operationId: 'getMediaUsage',
        summary: 'Entries and pages that use a media asset (media, media list and rich-text fields; working and published)',
        headers: WorkspaceHeaders,
        params: MediaIdParams,
        response: { 200: EnvelopeOf(MediaUsageSchema) },
      },
    },
    async (req) => ok(await mediaUsage(ctx, req.actor, req.headers['x-workspace-id'], req.params.id)),
  );

  r.get(
    '/media/:id',
    {
      schema: {
        tags,
        operationId: 'getMedia',
        summary: 'Get a media asset',
        headers: WorkspaceHeaders,
        params: MediaIdParams,
        response: { 200: EnvelopeOf(MediaAssetSchema) },
      },
    },
    async (req) => ok(await getMedia(ctx, req.actor, req.headers['x-workspace-id'], req.params.id)),
  );

  r.put(
    '/media/:id',
    {
      config: { action: 'media:write' },
      schema: {
        tags,
        operationId: 'updateMedia',
        summary: 'Change name, alt text, title, description, focal point or folder (a new folder moves the file and changes url)',
        headers: WorkspaceHeaders,
        params: MediaIdParams,
        body: UpdateMediaBody,
        response: { 200: EnvelopeOf(MediaAssetSchema) },
      },
    },
    async (req) => ok(await updateMedia(ctx, req.actor, req.headers['x-workspace-id'], req.params.id, req.body)),
  );

  r.delete(
    '/media/:id',
    {
      config: { action: 'media:write' },
      schema: {
        tags,
        operationId: 'deleteMedia',
        summary: 'Delete a media asset and its file',
        headers: WorkspaceHeaders,
        params: MediaIdParams,
        response: { 200: EmptyEnvelope },
      },
    },
    async (req) => {
      await deleteMedia(ctx, req.actor, req.headers['x-workspace-id'], req.params.id);
      return ok(null);
    },
  );
}
