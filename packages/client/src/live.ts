/**
 * The Live Content API (D142, docs/front-ends.md "Live updates"): `client.live.subscribe(handler)`
 * reads `GET /api/v1/public/live` with fetch (browsers' EventSource cannot send X-API-Key), hands
 * each event `{type: 'change', id, tags}` to `handler`, and reconnects with `Last-Event-ID` when
 * the stream ends or fails, so no change is missed; a `reset` event says the server could not
 * resume (refetch everything). Works in Node.js 20+ and browsers.
 */
import { QuireError, type QuireErrorCode } from './errors.js';
import type { Transport } from './transport.js';

const PATH = '/api/v1/public/live';
/** Longest pause between two reconnection attempts. */
const MAX_DELAY_MS = 30_000;

/**
 * One event of the stream: `change` (something the key may see changed; `tags` are the cache
 * tags of the answers it may alter, as `Cache-Tag` names them) or `reset` (the stream could not
 * resume from the last id: refetch everything; `tags` is empty).
 */
export interface LiveEvent {
  type: 'change' | 'reset';
  /** The event id (resume after it with `lastEventId`). */
  id: string;
  tags: string[];
  /** Why a reset happened. */
  reason?: string;
}

export interface LiveSubscribeOptions {
  /** Resume after this event id (a `LiveEvent.id` kept from an earlier subscription). */
  lastEventId?: string;
  /**
   * Called when the stream fails: a refusal that retrying cannot cure (401, 403: the
   * subscription stops) or a lost connection (it reconnects).
   */
  onError?: (error: QuireError) => void;
}

/** Parses the text of one SSE block into its fields (`id`, `event`, `data`, `retry`); comments dropped. */
export function parseSseBlock(block: string): { id?: string; event?: string; data?: string; retry?: number } {
  const out: { id?: string; event?: string; data?: string; retry?: number } = {};
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'data') out.data = out.data === undefined ? value : `${out.data}\n${value}`;
    else if (name === 'id') out.id = value;
    else if (name === 'event') out.event = value;
    else if (name === 'retry' && /^\d+$/.test(value)) out.retry = Number(value);
  }
  return out;
}

export class Live {
  constructor(private readonly t: Transport) {}

  /**
   * Calls `handler` for every change the client's delivery key may see, from now (or after
   * `options.lastEventId`) until the returned function is called. Reconnects by itself after a
   * failure, resuming after the last event handled.
   */
  subscribe(handler: (event: LiveEvent) => void, options: LiveSubscribeOptions = {}): () => void {
    const controller = new AbortController();
    let lastId = options.lastEventId;
    let retryMs = 2_000;
    let failures = 0;
    const o = this.t.options;
    const doFetch = o.fetch ?? globalThis.fetch;
    const report = (error: QuireError) => options.onError?.(error);

    const once = async (): Promise<'again' | 'stop'> => {
      const headers: Record<string, string> = { Accept: 'text/event-stream' };
      if (o.apiKey) headers['X-API-Key'] = o.apiKey;
      Object.assign(headers, typeof o.headers === 'function' ? o.headers({ method: 'GET', path: PATH }) : o.headers);
      if (lastId !== undefined) headers['Last-Event-ID'] = lastId;
      const res = await doFetch(this.t.url(PATH), { headers, credentials: o.credentials, signal: controller.signal });
      if (!res.ok || !res.body) {
        let body: { code?: string; message?: string } | null = null;
        try {
          body = (await res.json()) as { code?: string; message?: string };
        } catch {
          /* not the envelope */
        }
        report(
          new QuireError({
            code: (body?.code ?? 'INVALID_RESPONSE') as QuireErrorCode,
            status: res.status,
            message: body?.message ?? `GET ${PATH} answered ${res.status}`,
          }),
        );
        return res.status === 401 || res.status === 403 || res.status === 404 ? 'stop' : 'again';
      }
      failures = 0;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'again';
        buffer += value.replace(/\r\n?/g, '\n');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const f = parseSseBlock(block);
          if (f.retry !== undefined) retryMs = f.retry;
          if (f.data === undefined) continue;
          if (f.id !== undefined) lastId = f.id;
          const data = JSON.parse(f.data) as { id: number; tags?: string[]; reason?: string };
          const event: LiveEvent =
            f.event === 'reset'
              ? { type: 'reset', id: String(data.id), tags: [], reason: data.reason }
              : { type: 'change', id: String(data.id), tags: data.tags ?? [] };
          if (!controller.signal.aborted) handler(event);
        }
      }
    };

    const run = async () => {
      while (!controller.signal.aborted) {
        try {
          if ((await once()) === 'stop') return;
        } catch (err) {
          if (controller.signal.aborted) return;
          report(new QuireError({ code: 'NETWORK_ERROR', status: 0, message: `GET ${PATH}: the stream was lost`, cause: err }));
        }
        failures += 1;
        const wait = Math.min(MAX_DELAY_MS, retryMs * 2 ** Math.max(0, failures - 1)) * (0.5 + Math.random() / 2);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          controller.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    };
    void run();
    return () => controller.abort();
  }
}
