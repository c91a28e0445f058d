/**
 * Cache tags on delivery answers (docs/front-ends.md "Cache tags and CDN purge", D142): every
 * delivery handler runs inside the request's AnswerTags scope (src/modules/read/cache-tags.ts),
 * where the read model notes what it reads; a 200 answer then carries the tags in `Cache-Tag`
 * (comma-separated, Cloudflare) and `Surrogate-Key` (space-separated, Fastly). The delivery cache
 * keeps the tags with the answer and sends them again with each hit (src/http/delivery-cache.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Context } from '../context.js';
import { AnswerTags, itemTag, tagHeaders } from '../modules/read/cache-tags.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route's answers carry no cache tags (a stream, GET /live). */
    cacheTags?: boolean;
  }
}

/**
 * Wraps every route `app` registers from now on so its handler runs in an AnswerTags scope of
 * the request's workspace, and returns what gives a request's tags (null: none noted, or no
 * delivery actor).
 */
export function registerAnswerTags(app: FastifyInstance, ctx: Context): (request: FastifyRequest) => string[] | null {
  const noted = new WeakMap<FastifyRequest, AnswerTags>();
  const scope = ctx.caches.answerTags;
  app.addHook('onRoute', (route) => {
    if (route.config?.cacheTags === false) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const actor = request.actor as FastifyRequest['actor'] | undefined;
      if (!actor) return handler.call(this, request, reply);
      const tags = new AnswerTags(actor.workspaceId);
      // A release's answers depend on the release too (its publication, its deletion).
      if (actor.release !== undefined) tags.list(itemTag('release', actor.release));
      noted.set(request, tags);
      return scope.run(tags, () => handler.call(this, request, reply));
    };
  });
  return (request) => {
    const tags = noted.get(request)?.resolve();
    return tags && tags.length > 0 ? tags : null;
  };
}

/** Sets `Cache-Tag` and `Surrogate-Key` to `tags`. */
export function setTagHeaders(reply: FastifyReply, tags: readonly string[]): void {
  const { cacheTag, surrogateKey } = tagHeaders(tags);
  reply.header('Cache-Tag', cacheTag);
  reply.header('Surrogate-Key', surrogateKey);
}
