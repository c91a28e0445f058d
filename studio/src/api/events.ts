/**
 * The Studio's event stream and presence (docs/workflow.md "Who else is here" (D133)): one
 * `GET /api/v1/manage/events` stream per workspace and tab, read with fetch() (so the session
 * cookie and X-Workspace-ID go with it, which EventSource cannot send), reconnected with backoff.
 *
 *   useStudioEvents()          — once, in the workspace's layout: keeps the stream open and
 *                                invalidates the queries its frames touch (lists, the item, its
 *                                comments, the notifications; everything after a reconnection)
 *   usePresence({kind, id})    — in an editor: says the tab shows that item, and gives the people
 *                                on it (`others`: without the signed-in person)
 *   useStudioEvent(listener)   — any frame as it comes (e.g. "someone else changed this entry")
 *
 * The stream of a workspace is shared by every hook of the tab (counted; closed when the last one
 * goes). The parser and the connection are plain functions, tested without React.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useWorkspace } from '../app/workspace';
import { entryPath } from '../screens/entries/api';
import { pagePath } from '../screens/pages/api';
import { api, ApiError } from './client';
import { commentsKey } from './comments';
import type { StudioNotification } from './notifications';

/** A person as the stream shows one. */
export interface EventPerson {
  id: number;
  email: string;
  name: string | null;
}

/** The entry or page a frame is about. */
export interface EventItem {
  kind: 'entry' | 'page';
  id: string;
  content_type: string | null;
  slug: string | null;
}

/** What presence names an item by. */
export interface PresenceItem {
  kind: 'entry' | 'page';
  id: string;
}

/** A frame of the stream, parsed. */
export type StudioEvent =
  | { type: 'hello'; data: { stream: string; user: EventPerson } }
  | {
      type: 'item';
      data: { item: EventItem; type: string; by: number | null; version?: number | null; change?: string; stage?: { id: string; name: string } };
    }
  | { type: 'comment'; data: { item: EventItem; comment_id: string; action: 'created' | 'updated' | 'deleted' } }
  | { type: 'notification'; data: StudioNotification }
  | { type: 'presence'; data: { item: PresenceItem; people: EventPerson[] } };

/** One Server-Sent Events message: its `event` name (default `message`), `data` lines joined, `id`. */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/**
 * An incremental Server-Sent Events parser (the WHATWG rules: lines end in CRLF, LF or CR; a blank
 * line ends a message; `:` starts a comment; one space after the colon is dropped; several `data`
 * lines join with LF; a message without data is dropped). Feed it decoded text in any chunking.
 */
export class SseParser {
  #buffer = '';
  #event = '';
  #data: string[] = [];
  #id: string | undefined;

  /** The messages completed by `chunk`. */
  push(chunk: string): SseMessage[] {
    const out: SseMessage[] = [];
    this.#buffer += chunk;
    for (;;) {
      const m = /\r\n|\n|\r/.exec(this.#buffer);
      // A CR at the very end may be the first half of CRLF: wait for the next chunk.
      if (!m || (m[0] === '\r' && m.index === this.#buffer.length - 1)) break;
      const line = this.#buffer.slice(0, m.index);
      this.#buffer = this.#buffer.slice(m.index + m[0].length);
      this.#line(line, out);
    }
    return out;
  }

  #line(line: string, out: SseMessage[]): void {
    if (line === '') {
      if (this.#data.length > 0)
        out.push({ event: this.#event || 'message', data: this.#data.join('\n'), ...(this.#id !== undefined ? { id: this.#id } : {}) });
      this.#event = '';
      this.#data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'event') this.#event = value;
    else if (name === 'data') this.#data.push(value);
    else if (name === 'id' && !value.includes('\0')) this.#id = value;
  }
}

const TYPES = new Set(['hello', 'item', 'comment', 'notification', 'presence']);

/** The Studio event of a message; null for an unknown event name or data that is not a JSON object. */
export function studioEventOf(m: SseMessage): StudioEvent | null {
  if (!TYPES.has(m.event)) return null;
  try {
    const data: unknown = JSON.parse(m.data);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
    return { type: m.event, data } as StudioEvent;
  } catch {
    return null;
  }
}

/** `item` of a presence frame or PUT as a map key. */
export const presenceKey = (item: PresenceItem) => `${item.kind}:${item.id}`;

/**
 * The query keys (after `['ws', workspaceId]`) a frame makes stale: an item change its lists, its
 * editor's read, the home overview and version lists; a comment its item's comments; a
 * notification the person's notifications. Hello and presence: none (a reconnection's hello is
 * handled by the store: everything). Stale lists on screen are read again at once; an item's own
 * read (`entry`, `page`) is only marked stale, read again when an editor next opens it: an open
 * editor keeps its own copy in its form, and its own autosaves' frames must not cost a read each
 * (useStudioEvent tells it of others' changes).
 */
export function invalidationsOf(e: StudioEvent): unknown[][] {
  switch (e.type) {
    case 'item': {
      const { kind, content_type: type, slug } = e.data.item;
      if (kind === 'page') return [['pages'], ...(slug ? [['page', slug]] : []), ['overview'], ['versions']];
      return [type ? ['entries', type] : ['entries'], ...(type && slug ? [['entry', type, slug]] : []), ['overview'], ['versions']];
    }
    case 'comment': {
      const { kind, content_type: type, slug } = e.data.item;
      if (!slug || (kind === 'entry' && !type)) return [['comments']];
      return [commentsKey(kind === 'entry' ? entryPath(type!, slug) : pagePath(slug))];
    }
    case 'notification':
      // NotificationBell's NOTIFICATIONS_KEY.
      return [['notifications']];
    default:
      return [];
  }
}

/** Milliseconds to wait before reconnection `attempt` (0, 1, …): 1 s doubling to 30 s, with jitter (half to all of it). */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const full = Math.min(30_000, 1_000 * 2 ** Math.min(attempt, 10));
  return Math.round(full / 2 + (full / 2) * random());
}

export type StreamStatus = 'connecting' | 'open' | 'closed';

export interface ConnectOptions {
  workspaceId: string;
  onEvent: (e: StudioEvent) => void;
  onStatus?: (s: StreamStatus) => void;
  /** The session ended (401): the stream stops; the Studio's session check sends the person to sign in. */
  onUnauthorized?: () => void;
  /** Reconnect when nothing (not even a `: ping`) came for this long; default 45 s (three heartbeats). */
  idleMs?: number;
  fetch?: typeof fetch;
  /** Default `/api/v1/manage/events`. */
  url?: string;
  /** Reconnection delays (default backoffDelay). */
  delay?: (attempt: number) => number;
}

export interface Connection {
  close(): void;
  /** Ends the current stream and opens a new one at once (e.g. its presence row is gone). */
  reconnect(): void;
}

/** Opens the stream and keeps it open until close(): reads frames, reconnects with backoff after an end or error. */
export function connectStudioEvents(o: ConnectOptions): Connection {
  const doFetch = o.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const idleMs = o.idleMs ?? 45_000;
  const delay = o.delay ?? ((n: number) => backoffDelay(n));
  let closed = false;
  let attempt = 0;
  let controller: AbortController | null = null;
  let wakeSleep: (() => void) | null = null;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        wakeSleep = null;
        resolve();
      }
      wakeSleep = done;
    });

  const once = async (): Promise<'retry' | 'stop'> => {
    const c = new AbortController();
    controller = c;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => c.abort(), idleMs);
    };
    try {
      touch();
      const res = await doFetch(o.url ?? '/api/v1/manage/events', {
        headers: { 'X-Workspace-ID': o.workspaceId, Accept: 'text/event-stream' },
        credentials: 'same-origin',
        cache: 'no-store',
        signal: c.signal,
      });
      if (res.status === 401) {
        o.onUnauthorized?.();
        return 'stop';
      }
      if (!res.ok || !res.body) return 'retry';
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      const parser = new SseParser();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'retry';
        touch();
        for (const m of parser.push(decoder.decode(value, { stream: true }))) {
          const e = studioEventOf(m);
          if (!e) continue;
          if (e.type === 'hello') {
            attempt = 0;
            o.onStatus?.('open');
          }
          o.onEvent(e);
        }
      }
    } catch {
      return 'retry';
    } finally {
      clearTimeout(idle);
      if (controller === c) controller = null;
    }
  };

  void (async () => {
    while (!closed) {
      o.onStatus?.('connecting');
      const next = await once();
      if (closed) break;
      if (next === 'stop') {
        closed = true;
        break;
      }
      o.onStatus?.('connecting');
      await sleep(delay(attempt));
      attempt += 1;
    }
    o.onStatus?.('closed');
  })();

  return {
    close: () => {
      closed = true;
      controller?.abort();
      wakeSleep?.();
    },
    reconnect: () => {
      attempt = 0;
      controller?.abort();
      wakeSleep?.();
    },
  };
}

/** The shared stream of one workspace in this tab, its presence and its listeners. */
class WorkspaceEvents {
  readonly listeners = new Set<(e: StudioEvent) => void>();
  readonly #changed = new Set<() => void>();
  users = 0;
  status: StreamStatus = 'connecting';
  streamId: string | null = null;
  me: EventPerson | null = null;
  queryClient: QueryClient | null = null;

  /** The query cache the frames invalidate (useStudioEvents sets it). */
  setQueryClient(client: QueryClient): void {
    this.queryClient = client;
  }
  /** People per item key, as the last presence frame or PUT said. */
  readonly people = new Map<string, EventPerson[]>();
  /** Items the tab's editors show, newest last: the stream's presence is the last one. */
  readonly #wanted: { token: object; item: PresenceItem }[] = [];
  #sent: string | null = null;
  #sending: Promise<void> = Promise.resolve();
  #hellos = 0;
  #connection: Connection | null = null;

  constructor(readonly workspaceId: string) {}

  acquire(): () => void {
    this.users += 1;
    if (!this.#connection) {
      this.#connection = connectStudioEvents({
        workspaceId: this.workspaceId,
        onEvent: (e) => this.#onEvent(e),
        onStatus: (s) => {
          this.status = s;
          this.#emit();
        },
        onUnauthorized: () => void this.queryClient?.invalidateQueries({ queryKey: ['session'] }),
      });
    }
    return () => {
      this.users -= 1;
      if (this.users === 0) {
        this.#connection?.close();
        this.#connection = null;
        this.streamId = null;
        this.#hellos = 0;
        this.#sent = null;
        this.people.clear();
      }
    };
  }

  subscribe = (fn: () => void): (() => void) => {
    this.#changed.add(fn);
    return () => this.#changed.delete(fn);
  };

  #emit(): void {
    for (const fn of this.#changed) fn();
  }

  #onEvent(e: StudioEvent): void {
    if (e.type === 'hello') {
      this.streamId = e.data.stream;
      this.me = e.data.user;
      this.#sent = null;
      this.people.clear();
      // A reconnection may have missed anything: everything shown is read again.
      if (this.#hellos++ > 0) void this.queryClient?.invalidateQueries({ queryKey: ['ws', this.workspaceId] });
      this.#sync();
    } else if (e.type === 'presence') {
      this.people.set(presenceKey(e.data.item), e.data.people);
    }
    const client = this.queryClient;
    if (client)
      for (const key of invalidationsOf(e))
        void client
          .invalidateQueries(
            { queryKey: ['ws', this.workspaceId, ...key], refetchType: key[0] === 'entry' || key[0] === 'page' ? 'none' : 'active' },
            { cancelRefetch: false },
          )
          .catch(() => {});
    for (const fn of this.listeners) fn(e);
    this.#emit();
  }

  want(token: object, item: PresenceItem | null): void {
    const i = this.#wanted.findIndex((w) => w.token === token);
    if (i >= 0) this.#wanted.splice(i, 1);
    if (item) this.#wanted.push({ token, item });
    this.#sync();
  }

  /** Sends the presence the tab wants now, one PUT at a time; a stream the server no longer knows reconnects. */
  #sync(): void {
    this.#sending = this.#sending.then(async () => {
      const stream = this.streamId;
      const item = this.#wanted.at(-1)?.item ?? null;
      const key = item ? presenceKey(item) : '';
      if (!stream || this.#sent === `${stream}\n${key}`) return;
      try {
        const res = await api<{ people: EventPerson[] }>(`/events/${encodeURIComponent(stream)}/presence`, { method: 'PUT', body: { item } });
        if (this.streamId !== stream) return;
        this.#sent = `${stream}\n${key}`;
        if (item) this.people.set(key, res.data.people);
        this.#emit();
      } catch (err) {
        if (err instanceof ApiError && err.status === 404 && this.streamId === stream) this.#connection?.reconnect();
      }
    });
  }
}

const stores = new Map<string, WorkspaceEvents>();

function storeOf(workspaceId: string): WorkspaceEvents {
  let s = stores.get(workspaceId);
  if (!s) {
    s = new WorkspaceEvents(workspaceId);
    stores.set(workspaceId, s);
  }
  return s;
}

/** The workspace's store, its stream kept open while the calling component is mounted. */
function useStore(): WorkspaceEvents {
  const { workspace } = useWorkspace();
  const store = storeOf(workspace.id);
  useEffect(() => store.acquire(), [store]);
  return store;
}

/**
 * Keeps the workspace's event stream open and makes the queries its frames touch stale (mount
 * once, in the workspace's layout). Returns the stream's status and id.
 */
export function useStudioEvents(): { status: StreamStatus; streamId: string | null } {
  const store = useStore();
  const client = useQueryClient();
  useEffect(() => {
    store.setQueryClient(client);
  }, [store, client]);
  const status = useSyncExternalStore(store.subscribe, () => store.status);
  const streamId = useSyncExternalStore(store.subscribe, () => store.streamId);
  return { status, streamId };
}

/** Calls `listener` with every frame of the workspace's stream while mounted. */
export function useStudioEvent(listener: (e: StudioEvent) => void): void {
  const store = useStore();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    const fn = (e: StudioEvent) => latest.current(e);
    store.listeners.add(fn);
    return () => void store.listeners.delete(fn);
  }, [store]);
}

const NOBODY: EventPerson[] = [];

/**
 * Says this tab shows `item` (null: none) while mounted, and returns the people whose Studio shows
 * it: `people` (the signed-in person included, in the order they came) and `others` (without them).
 */
export function usePresence(item: PresenceItem | null): { people: EventPerson[]; others: EventPerson[] } {
  const store = useStore();
  const [token] = useState(() => ({}));
  const kind = item?.kind;
  const id = item?.id;
  useEffect(() => {
    store.want(token, kind && id ? { kind, id } : null);
    return () => store.want(token, null);
  }, [store, token, kind, id]);
  const people = useSyncExternalStore(store.subscribe, () => (kind && id ? (store.people.get(`${kind}:${id}`) ?? NOBODY) : NOBODY));
  const me = useSyncExternalStore(store.subscribe, () => store.me);
  return { people, others: me ? people.filter((p) => p.id !== me.id) : people };
}
