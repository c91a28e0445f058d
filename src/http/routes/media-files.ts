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
        schema: { tags: ['Files'], summary: 'A media file, optionally transformed (images)', querystring: FileQuery },
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
