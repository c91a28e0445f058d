/**
 * A Server-Sent Events reader over a real socket for the live suites (test/live.test.ts,
 * test/studio-events.test.ts): opens GET /api/v1/public/live (or another stream), parses frames as
 * they arrive and lets a test wait for them.
 */
import http from 'node:http';

/** Polls `check` (every 10 ms) until it gives a value other than undefined or false; throws after `ms`, with `state()` in the message. */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 10_000,
  state: () => string = () => '',
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms ${state()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface LiveFrame {
  id?: string;
  event?: string;
  data?: any;
}

export interface LiveStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every event frame so far, in order. */
  frames: LiveFrame[];
  /** Comment lines so far (`: ping`). */
  comments: string[];
  /** Whether the server ended the stream. */
  ended: boolean;
  /** The body when the answer was not a stream (an error envelope). */
  body: string;
  /** Waits until `test` holds for the frames, or throws after `ms`. */
  waitFor<T>(what: string, test: (s: LiveStream) => T | undefined | false | Promise<T | undefined | false>, ms?: number): Promise<T>;
  close(): void;
}

/** Opens the stream on `port` with `key` (and `headers`), resolving once its headers arrived. */
export function openLive(port: number, key: string, headers: Record<string, string> = {}, query = ''): Promise<LiveStream> {
  return openStream(port, `/api/v1/public/live${query}`, { 'x-api-key': key, ...headers });
}

/** Opens any Server-Sent Events stream at `path` on `port` with `headers` (the Studio's: test/studio-events.test.ts). */
export function openStream(port: number, path: string, headers: Record<string, string>): Promise<LiveStream> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers }, (res) => {
      let buffer = '';
      const stream: LiveStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        frames: [],
        comments: [],
        ended: false,
        body: '',
        waitFor: (what, test, ms) =>
          until(
            what,
            () => test(stream),
            ms,
            () => `status ${stream.status} ${stream.body} frames ${JSON.stringify(stream.frames)} comments ${stream.comments.length}`,
          ),
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (stream.status !== 200) {
          stream.body += chunk;
          return;
        }
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const frame: LiveFrame = {};
          let isFrame = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
            else {
              const i = line.indexOf(':');
              const name = line.slice(0, i);
              const value = line.slice(i + 1).replace(/^ /, '');
              if (name === 'id') frame.id = value;
              else if (name === 'event') frame.event = value;
              else if (name === 'data') frame.data = JSON.parse(value);
              else continue;
              isFrame = true;
            }
          }
          if (isFrame && (frame.data !== undefined || frame.event !== undefined)) stream.frames.push(frame);
        }
      });
      res.on('end', () => {
        stream.ended = true;
      });
      res.on('close', () => {
        stream.ended = true;
      });
      res.on('error', () => {});
      resolve(stream);
    });
    req.on('error', reject);
  });
}
