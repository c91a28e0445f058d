/**
 * The Studio's event stream and presence (docs/workflow.md "Who else is here" (D133)):
 * `GET /events` (Studio sessions only: keys 403), a Server-Sent Events stream read by the Studio
 * with fetch() (so the session cookie and X-Workspace-ID go as on every request), and
 * `PUT /events/{stream}/presence`. The stream is the hub's (src/modules/live/studio-hub.ts); this
 * route admits the person (429 past their cap, in the envelope), then takes the response over.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { setPresence } from '../../../modules/presence/operations.js';
import { EnvelopeOf, ok } from '../../envelope.js';
import { openEventStream } from '../../event-stream.js';
import { PresenceBody, PresenceParams, PresenceSchema } from '../../schemas/studio-events.js';

/** Registers GET /events and PUT /events/{stream}/presence; streams end when the app closes. */
export async function studioEventRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  // Before the server waits for its connections to end: a stream never ends by itself.
  app.addHook('preClose', async () => ctx.studio.close());
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/events',
    {
      config: { action: 'studio:events', cache: false },
      schema: {
        operationId: 'getStudioEvents',
        tags: ['Studio: events'],
        summary: "Server-Sent Events: what changes around the person's Studio (Studio session only)",
        description:
          'A `text/event-stream` (D133): first `event: hello` `{stream, user}`; then `event: item` `{item: {kind, id, content_type, slug}, type, by}` for changes of entries and pages the person may read (saves, publications, workflow moves and approvals), `event: comment` `{item, comment_id, action}`, `event: notification` (a Notification, to its person only) and `event: presence` `{item, people}` for the item the stream said it shows (PUT /events/{stream}/presence). A `: ping` comment every 15 s. No resume: a stream that reconnects gets a new hello (refetch what is shown). API keys: 403. 429 past the per-person cap of open streams on one server.',
        errors: ['FORBIDDEN', 'RATE_LIMITED'],
        response: {
          200: {
            description: 'The event stream (never ends by itself).',
            content: { 'text/event-stream': { schema: Type.String({ description: 'Server-Sent Events' }) } },
          },
        },
      },
    },
    async (req, reply) => {
      ctx.studio.admit(req.actor);
      const stream = openEventStream(req, reply);
      let stop: () => void;
      try {
        stop = (await ctx.studio.start(req.actor, stream.sink)).stop;
      } catch (err) {
        req.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'studio event stream could not start');
        stream.sink.end();
        return;
      }
      stream.onGone(stop);
    },
  );

  r.put(
    '/events/:stream/presence',
    {
      config: { action: 'studio:events' },
      schema: {
        operationId: 'setStudioPresence',
        tags: ['Studio: events'],
        summary: 'Say which entry or page the Studio of an event stream shows (Studio session only)',
        description:
          "Sets the item the stream's Studio shows (`null`: none) and answers the people on it. The people of the item left and of the item joined get `event: presence` on their streams. Only the stream's own person may: 404 for a stream that is unknown, closed, expired or someone else's, and for an item that does not exist or that the person may not read. Presence expires about three heartbeats (45 s) after the stream's server stops refreshing it.",
        errors: ['FORBIDDEN', 'NOT_FOUND', 'VALIDATION_FAILED'],
        params: PresenceParams,
        body: PresenceBody,
        response: { 200: EnvelopeOf(PresenceSchema) },
      },
    },
    async (req) => ok(await setPresence(ctx, req.actor, req.params.stream, req.body.item)),
  );
}
