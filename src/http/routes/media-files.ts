/**
 * GET /media/files/<storage key>: the files behind media `url`s, with image transforms in the
 * query (`w`, `h`, `fit`, `fm`, `q`). Public (no API key: the URLs are what delivery hands
 * out), streamed through Quire from either storage backend. The rules (lookup, caching headers,
 * ETag/304, ranges, derived-image cache) are in src/modules/media/files.ts.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { FILES_PATH } from '../../modules/media/locations.js';
import { serveMediaFile } from '../../modules/media/files.js';
import { FileQuery } from '../schemas/media.js';

/** The file-serving plugin (root level, public). */
export function mediaFileRoutes(ctx: Context): FastifyPluginAsync {
  return async (app) => {
    app.withTypeProvider<TypeBoxTypeProvider>().get(
      `${FILES_PATH}/*`,
      {
        schema: {
          operationId: 'getMediaFile',
          tags: ['Files'],
          summary: 'A media file, optionally transformed (images)',
          description:
            'The bytes of a media asset: the `url` of an asset points here. Images take transforms in the query (`w`, `h`, `fit`, `fm`, `q`), rendered once and kept. Answers carry a long-lived `Cache-Control` and an `ETag` (304 on `If-None-Match`); originals honour one `Range` (206). An image that cannot be decoded for a transform answers 415.',
          querystring: FileQuery,
          errors: ['UNSUPPORTED_MEDIA_TYPE'],
        },
      },
      async (req, reply) => {
        const params = req.params as { '*': string };
        const ifNoneMatch = req.headers['if-none-match'];
        const file = await serveMediaFile(ctx, { key: params['*'], query: req.query, ifNoneMatch, range: req.headers.range });
        reply.code(file.status).headers(file.headers);
        return reply.send(file.body ?? undefined);
      },
    );
  };
}
