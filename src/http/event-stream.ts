/**
 * A Server-Sent Events response (docs/front-ends.md "Live updates"; docs/workflow.md "Who else
 * is here"): the route hijacks the reply and writes frames to the raw response for as long as the
 * client stays. Shared by `GET /api/v1/public/live` and `GET /api/v1/manage/events`.
 *
 * - Headers set so far (CORS, request id) go out with the stream's own: `text/event-stream`,
 *   `private, no-store`, no proxy buffering, and `Connection: close`, so no connection is left
 *   idle when the server closes.
 * - The socket's idle timeout is off: the hub's heartbeat keeps the connection busy.
 * - The sink's `write` answers the bytes still unsent (the hubs close a stream whose backlog
 *   passes their bound); writes after the end are dropped.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Where a hub writes a stream's frames. */
export interface EventStreamSink {
  write(frame: string): number;
  end(): void;
}

/** An open stream: its sink, whether the client has gone, and what to run when it goes. */
export interface EventStream {
  sink: EventStreamSink;
  /** True once the client closed the connection. */
  readonly gone: boolean;
  /** Runs `stop` when the client goes (at once if it has gone already). */
  onGone(stop: () => void): void;
}

/** Hijacks `reply` and opens the stream (status 200, headers sent with the first frame). */
export function openEventStream(req: FastifyRequest, reply: FastifyReply): EventStream {
  reply.hijack();
  const res = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value as string);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'private, no-store');
  res.setHeader('X-Accel-Buffering', 'no');
  res.setHeader('Connection', 'close');
  res.statusCode = 200;
  req.raw.socket.setTimeout(0);
  let gone = false;
  let stop: (() => void) | null = null;
  res.on('close', () => {
    gone = true;
    stop?.();
  });
  return {
    sink: {
      write: (frame) => {
        if (!res.writableEnded && !res.destroyed) res.write(frame);
        return res.writableLength;
      },
      end: () => {
        if (!res.writableEnded) res.end();
      },
    },
    get gone() {
      return gone;
    },
    onGone(fn) {
      if (gone) fn();
      else stop = fn;
    },
  };
}
