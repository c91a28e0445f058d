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
      reply.hijack();
      const res = reply.raw;
      // Headers set so far (CORS, request id) go out with the stream's own.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value as string);
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'private, no-store');
      res.setHeader('X-Accel-Buffering', 'no');
      // The connection ends with the stream: none is left idle when the server closes.
      res.setHeader('Connection', 'close');
      res.statusCode = 200;
      // The heartbeat keeps the connection busy; no idle timeout applies to a stream.
      req.raw.socket.setTimeout(0);
      let stop: (() => void) | null = null;
      let gone = false;
      res.on('close', () => {
        gone = true;
        stop?.();
      });
      const sink = {
        write: (frame: string) => {
          if (!res.writableEnded && !res.destroyed) res.write(frame);
          return res.writableLength;
        },
        end: () => {
          if (!res.writableEnded) res.end();
        },
      };
      const lastEventId = firstHeader(req.headers['last-event-id']) ?? req.query.last_event_id;
      try {
        stop = await ctx.live.start(req.actor, sink, lastEventId);
      } catch (err) {
        // Admitted a moment ago: only a close in between (or a failed read) gets here.
        req.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'live stream could not start');
        sink.end();
        return;
      }
      if (gone) return stop();
      // Headers out once the stream is joined: a client that saw them gets every later change.
      sink.write('retry: 2000\n\n');
    },
  );
}
