/**
 * GET /api/v1/public/live (docs/api.md "GET /api/v1/public/live"; docs/front-ends.md "Live
 * updates", D142): a Server-Sent Events stream of the changes the key may see, each `{id, tags}`,
 * resumed after `Last-Event-ID` (the header, or `?last_event_id=`). The stream is the hub's
 * (src/modules/live/hub.ts); this route admits the key (429 past its connection cap, in the
 * envelope), then takes the response over and writes frames as they come.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { firstHeader } from '../../auth-hooks.js';
import { openEventStream } from '../../event-stream.js';

const LiveQuery = Type.Object(
  { last_event_id: Type.Optional(Type.String({ maxLength: 40, description: 'Resume after this event id (as the Last-Event-ID header).' })) },
  { additionalProperties: false },
);

/** Registers GET /live on the delivery plugin; its streams end when the app closes. */
export async function deliveryLiveRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  // Before the server waits for its connections to end: a stream never ends by itself.
  app.addHook('preClose', async () => ctx.live.close());

  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/live',
    {
      config: { cache: false, cacheTags: false },
      schema: {
        operationId: 'getLiveEvents',
        tags: ['Delivery: live'],
        summary: 'Server-Sent Events: one event {id, tags} per change the key may see',
        description:
          'A `text/event-stream` (D142): `id: N` and `data: {"id":N,"tags":[...]}` for every change the key may see (production keys: publications, unpublications, deletions, releases; preview keys: every save), where `tags` are the cache tags of the answers it changes (`Cache-Tag`). `Last-Event-ID` (or `?last_event_id=`) resumes after that event; an id older than the history kept answers one `event: reset` (refetch everything) carrying the current id. A `: ping` comment every 15 s. 429 past the per-key connection cap.',
        errors: ['RATE_LIMITED'],
        querystring: LiveQuery,
        headers: Type.Object({
          'last-event-id': Type.Optional(Type.String({ description: 'Resume after this event id (the `id` of the last event received).' })),
        }),
        response: {
          200: {
            description: 'The event stream (never ends by itself).',
            content: { 'text/event-stream': { schema: Type.String({ description: 'Server-Sent Events' }) } },
          },
        },
      },
    },
    async (req, reply) => {
      ctx.live.admit(req.actor);
      const stream = openEventStream(req, reply);
      const lastEventId = firstHeader(req.headers['last-event-id']) ?? req.query.last_event_id;
      let stop: () => void;
      try {
        stop = await ctx.live.start(req.actor, stream.sink, lastEventId);
      } catch (err) {
        // Admitted a moment ago: only a close in between (or a failed read) gets here.
        req.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'live stream could not start');
        stream.sink.end();
        return;
      }
      if (stream.gone) return stop();
      stream.onGone(stop);
      // Headers out once the stream is joined: a client that saw them gets every later change.
      stream.sink.write('retry: 2000\n\n');
    },
  );
}
