/**
 * `GET /api/live`: the site's own Server-Sent Events stream for open published pages (src/components/
 * LiveUpdates.astro). Each Quire live event reaches it after the site's server dropped the cached
 * answers the event's tags name (src/lib/live.ts), as `data: {"type","id","tags"}`; a `: ping`
 * comment every 15 s keeps proxies from closing it. No key is involved: the browser only learns
 * which opaque cache tags changed. The stream ends when the visitor leaves; 404 when
 * SITE_LIVE_UPDATES is off.
 */
import type { APIRoute } from 'astro';
import type { PageEvent } from '../../lib/live';
import { liveHub } from '../../lib/quire';

const HEARTBEAT_MS = 15_000;

export const GET: APIRoute = ({ request }) => {
  const hub = liveHub();
  if (!hub.enabled) return Response.json({ error: 'SITE_LIVE_UPDATES is off' }, { status: 404 });
  const encoder = new TextEncoder();
  let close = (): void => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      const stopListening = hub.listen((event: PageEvent) => send(`data: ${JSON.stringify(event)}\n\n`));
      const heartbeat = setInterval(() => send(': ping\n\n'), HEARTBEAT_MS);
      close = () => {
        clearInterval(heartbeat);
        stopListening();
      };
      request.signal.addEventListener('abort', () => {
        close();
        try {
          controller.close();
        } catch {
          // Already closed.
        }
      });
      // A comment at once, so the browser sees the stream open before the first event.
      send(': open\n\n');
    },
    cancel() {
      close();
    },
  });
  return new Response(body, {
    headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' },
  });
};
