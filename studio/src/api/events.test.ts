import { describe, expect, it, vi } from 'vitest';
import { backoffDelay, connectStudioEvents, invalidationsOf, SseParser, studioEventOf, type StudioEvent } from './events';

const item = { kind: 'entry' as const, id: 'e1', content_type: 'post', slug: 'hello' };

describe('SseParser', () => {
  it('parses named events in any chunking, LF, CRLF or CR line ends, and skips comments', () => {
    const text =
      'event: hello\r\ndata: {"stream":"s1"}\r\n\r\n: ping\n\nevent: item\ndata: {"a":1}\n\nevent: presence\rdata: {"b":2}\r\r: a CR at the end of a chunk waits for the next\n';
    // Every split point gives the same messages.
    for (let i = 0; i <= text.length; i++) {
      const p = new SseParser();
      const got = [...p.push(text.slice(0, i)), ...p.push(text.slice(i))];
      expect(got, `split at ${i}`).toEqual([
        { event: 'hello', data: '{"stream":"s1"}' },
        { event: 'item', data: '{"a":1}' },
        { event: 'presence', data: '{"b":2}' },
      ]);
    }
  });

  it('joins data lines, drops one space after the colon, keeps ids, and defaults the name to message', () => {
    const p = new SseParser();
    expect(p.push('data:one\ndata:  two\nid: 7\n\ndata\n\nevent: x\n\n')).toEqual([
      { event: 'message', data: 'one\n two', id: '7' },
      { event: 'message', data: '', id: '7' },
    ]);
  });

  it('holds back an unfinished message', () => {
    const p = new SseParser();
    expect(p.push('event: item\ndata: {"a":1}\n')).toEqual([]);
    expect(p.push('\n')).toEqual([{ event: 'item', data: '{"a":1}' }]);
  });
});

describe('studioEventOf', () => {
  it('knows the five frames and ignores anything else', () => {
    expect(studioEventOf({ event: 'item', data: JSON.stringify({ item, type: 'entry.updated', by: null }) })).toEqual({
      type: 'item',
      data: { item, type: 'entry.updated', by: null },
    });
    expect(studioEventOf({ event: 'reset', data: '{}' })).toBeNull();
    expect(studioEventOf({ event: 'item', data: 'not json' })).toBeNull();
    expect(studioEventOf({ event: 'item', data: '[1]' })).toBeNull();
  });
});

describe('invalidationsOf', () => {
  it('names the query keys each frame makes stale', () => {
    expect(invalidationsOf({ type: 'item', data: { item, type: 'entry.updated', by: null } })).toEqual([
      ['entries', 'post'],
      ['entry', 'post', 'hello'],
      ['overview'],
      ['versions'],
    ]);
    expect(
      invalidationsOf({ type: 'item', data: { item: { kind: 'page', id: 'p1', content_type: null, slug: 'about' }, type: 'page.published', by: null } }),
    ).toEqual([['pages'], ['page', 'about'], ['overview'], ['versions']]);
    expect(invalidationsOf({ type: 'comment', data: { item, comment_id: 'c1', action: 'created' } })).toEqual([
      ['comments', '/content-types/post/entries/hello'],
    ]);
    expect(invalidationsOf({ type: 'notification', data: {} as never })).toEqual([['notifications']]);
    expect(invalidationsOf({ type: 'presence', data: { item: { kind: 'entry', id: 'e1' }, people: [] } })).toEqual([]);
  });
});

describe('backoffDelay', () => {
  it('doubles from 1 s to 30 s, jittered between half and all of it', () => {
    expect(backoffDelay(0, () => 0)).toBe(500);
    expect(backoffDelay(0, () => 1)).toBe(1000);
    expect(backoffDelay(3, () => 1)).toBe(8000);
    expect(backoffDelay(20, () => 1)).toBe(30_000);
  });
});

/** A fetch answer whose body yields `chunks` then ends (or stays open with `hang`). */
function streamResponse(chunks: string[], status = 200, hang = false): Response {
  const encoder = new TextEncoder();
  let i = 0;
  return {
    status,
    ok: status >= 200 && status < 300,
    body: {
      getReader: () => ({
        read: () =>
          i < chunks.length
            ? Promise.resolve({ done: false, value: encoder.encode(chunks[i++]) })
            : hang
              ? new Promise(() => {})
              : Promise.resolve({ done: true, value: undefined }),
      }),
    },
  } as unknown as Response;
}

describe('connectStudioEvents', () => {
  it('sends X-Workspace-ID, hands out frames, reconnects after the stream ends and stops on 401', async () => {
    const answers = [
      streamResponse([
        'event: hello\ndata: {"stream":"s1","user":{"id":1,"email":"a@x","name":null}}\n\n',
        ': ping\n\nevent: item\ndata: ',
        JSON.stringify({ item, type: 'entry.updated', by: null }) + '\n\n',
      ]),
      streamResponse([], 503),
      streamResponse(['event: hello\ndata: {"stream":"s2","user":{"id":1,"email":"a@x","name":null}}\n\n']),
      streamResponse([], 401),
    ];
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => answers.shift()!);
    const events: StudioEvent[] = [];
    const delays: number[] = [];
    const statuses: string[] = [];
    const unauthorized = vi.fn();
    connectStudioEvents({
      workspaceId: 'ws-1',
      fetch: fetch as unknown as typeof globalThis.fetch,
      onEvent: (e) => events.push(e),
      onStatus: (s) => statuses.push(s),
      onUnauthorized: unauthorized,
      delay: (n) => {
        delays.push(n);
        return 0;
      },
    });
    await vi.waitFor(() => expect(unauthorized).toHaveBeenCalled());
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('closed'));
    expect(fetch).toHaveBeenCalledTimes(4);
    const init = fetch.mock.calls[0][1]!;
    expect(init.headers).toMatchObject({ 'X-Workspace-ID': 'ws-1' });
    expect(init.credentials).toBe('same-origin');
    expect(events.map((e) => e.type)).toEqual(['hello', 'item', 'hello']);
    expect(events[2].type === 'hello' && events[2].data.stream).toBe('s2');
    // The attempt count starts over after each hello: 0 after the first stream, 1 after the 503, 0 again.
    expect(delays).toEqual([0, 1, 0]);
  });

  it('reconnects a stream that goes silent, and close() stops it', async () => {
    let calls = 0;
    const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      calls += 1;
      const res = streamResponse([`event: hello\ndata: {"stream":"s${calls}","user":{"id":1,"email":"a@x","name":null}}\n\n`], 200, true);
      // The hanging read ends when the connection is aborted, as fetch's body does.
      const reader = res.body!.getReader();
      let first = true;
      (res as unknown as { body: unknown }).body = {
        getReader: () => ({
          read: () => {
            if (first) {
              first = false;
              return reader.read();
            }
            return new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(new Error('aborted'))));
          },
        }),
      };
      return res;
    });
    const hellos: string[] = [];
    const c = connectStudioEvents({
      workspaceId: 'ws-1',
      fetch: fetch as unknown as typeof globalThis.fetch,
      onEvent: (e) => e.type === 'hello' && hellos.push(e.data.stream),
      idleMs: 20,
      delay: () => 0,
    });
    await vi.waitFor(() => expect(hellos.length).toBeGreaterThanOrEqual(2));
    c.close();
    const seen = fetch.mock.calls.length;
    await new Promise((r) => setTimeout(r, 60));
    expect(fetch.mock.calls.length).toBe(seen);
  });
});
