/**
 * Cache tags on delivery answers (docs/front-ends.md "Cache tags and CDN purge", D142): every
 * delivery request that reaches its handler gets its own AnswerTags (src/modules/read/cache-tags.ts),
 * which its handler passes down in the context it reads with (taggedContext), so the read model
 * notes what it reads there and nowhere else; a 200 answer then carries the tags in `Cache-Tag`
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
  interface FastifyRequest {
    /** The tags this delivery request's answer depends on, as noted so far (null: none collected). */
    answerTags: AnswerTags | null;
  }
}

/**
 * Gives every route `app` registers from now on an AnswerTags of the request's workspace, made
 * when its handler is called (request.answerTags), and returns what gives a request's tags
 * (null: none noted, or no delivery actor). Handlers read with taggedContext(ctx, request).
 */
export function registerAnswerTags(app: FastifyInstance): (request: FastifyRequest) => string[] | null {
  app.decorateRequest('answerTags', null);
  app.addHook('onRoute', (route) => {
    if (route.config?.cacheTags === false) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const actor = request.actor as FastifyRequest['actor'] | undefined;
      if (actor) {
        const tags = new AnswerTags(actor.workspaceId);
        // A release's answers depend on the release too (its publication, its deletion).
        if (actor.release !== undefined) tags.list(itemTag('release', actor.release));
        request.answerTags = tags;
      }
      return handler.call(this, request, reply);
    };
  });
  return (request) => {
    const tags = request.answerTags?.resolve();
    return tags && tags.length > 0 ? tags : null;
  };
}

/**
 * The context a delivery handler reads with: a copy of `ctx` carrying the request's AnswerTags,
 * so what the read notes lands in this request's tags only (concurrent requests each have their
 * own copy); `ctx` itself when the request collects none (a route outside registerAnswerTags).
 */
export function taggedContext(ctx: Context, request: FastifyRequest): Context {
  const tags = request.answerTags as AnswerTags | null | undefined;
  return tags ? { ...ctx, answerTags: tags } : ctx;
}

/** Sets `Cache-Tag` and `Surrogate-Key` to `tags`. */
export function setTagHeaders(reply: FastifyReply, tags: readonly string[]): void {
  const { cacheTag, surrogateKey } = tagHeaders(tags);
  reply.header('Cache-Tag', cacheTag);
  reply.header('Surrogate-Key', surrogateKey);
}
