/**
 * The Live Content API's engine (docs/front-ends.md "Live updates", D142): `GET
 * /api/v1/public/live` subscribers of one instance, and one shared reader per workspace that reads
 * the `events` table (every write records its events in its own transaction) after the last id it
 * saw and hands each new event to the subscribers allowed to see it, as
 * `id: N` / `data: {"id":N,"tags":[...]}`.
 *
 * - Ids are the events' ids: per workspace they grow in commit order (migration 010), so a
 *   subscriber resumes with `Last-Event-ID` exactly where it stopped. A resume is replayed from
 *   the table by the workspace's reader itself, between two of its reads, so nothing is missed
 *   or sent twice. An id that is not a number, lies ahead of the workspace's events, or whose
 *   next event is older than LIVE_HISTORY_SECONDS (or is followed by more than MAX_REPLAY
 *   events) gets one `event: reset` carrying the current id instead: refetch everything.
 * - Who sees what: production keys the events production readers see (publications,
 *   unpublications, deletions, releases: `events.live`, D83); preview keys every event (each
 *   save); a key with a content-type whitelist only events of those types (and of pages, media
 *   and releases).
 * - Wake-ups: this process's commits call db.memo.eventWatchers; other instances' arrive through
 *   a transport (transports.ts: PostgreSQL LISTEN/NOTIFY, or Redis pub/sub when REDIS_URL is
 *   set), both shared with the Studio's event stream (wake-ups.ts); every LIVE_POLL_MS readers
 *   with subscribers read anyway (writes of a process that announces nowhere, such as the CLI
 *   with Redis).
 * - Bounds: LIVE_MAX_CONNECTIONS_PER_KEY subscribers per key on this instance (more: 429);
 *   a subscriber whose unsent output passes MAX_BACKLOG_BYTES is closed (it resumes with its
 *   Last-Event-ID); events are read READ_BATCH at a time. One heartbeat timer (a `: ping`
 *   comment every LIVE_HEARTBEAT_MS) serves every subscriber.
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/time.js';
import type { Actor } from '../auth/permissions.js';
import { firstEventTimeAfter, lastEventId, listEventsAfter, type EventRecord } from '../events/repository.js';
import { changeTags } from '../read/cache-tags.js';
import type { WakeUps } from './wake-ups.js';

/** Events read per query. */
const READ_BATCH = 500;
/** Most events a resume replays; more gets a reset. */
export const MAX_REPLAY = 2_000;
/** Unsent bytes after which a subscriber is closed. */
export const MAX_BACKLOG_BYTES = 1024 * 1024;

/** Where a subscriber's frames go (an HTTP response). */
export interface LiveSink {
  /** Writes `frame`; returns the bytes still waiting to be sent. */
  write(frame: string): number;
  /** Ends the stream (the hub is done with it). */
  end(): void;
}

/** The settings the hub reads (src/config.ts). */
export interface LiveSettings {
  liveHeartbeatMs: number;
  liveHistorySeconds: number;
  liveMaxConnectionsPerKey: number;
  livePollMs: number;
}

export interface LiveDeps {
  db: Db;
  log: Logger;
  clock: Clock;
  config: LiveSettings;
  /** The instance's wake-ups, shared with the Studio's event stream. */
  wakeUps: WakeUps;
}

interface Subscriber {
  actor: Actor;
  sink: LiveSink;
  /** What decides which events it sees (visibleTo): subscribers with the same audience get the same frames. */
  audience: string;
}

/** The audience of `actor`: its environment and content-type whitelist. */
function audienceOf(actor: Pick<Actor, 'environment' | 'contentTypes'>): string {
  return `${actor.environment === 'preview' ? 'preview' : 'production'}\n${[...actor.contentTypes].sort().join(',')}`;
}

/** Whether `actor` may see `event` (module comment). */
export function visibleTo(actor: Pick<Actor, 'environment' | 'contentTypes'>, event: EventRecord): boolean {
  if (actor.environment !== 'preview' && !event.live) return false;
  if (actor.contentTypes.length > 0 && (event.itemKind === 'entry' || event.itemKind === 'content_type'))
    return event.contentType !== null && actor.contentTypes.includes(event.contentType);
  return true;
}

/** The SSE frame of an event. */
export function eventFrame(event: EventRecord): string {
  return `id: ${event.id}\ndata: ${JSON.stringify({ id: event.id, tags: changeTags(event) })}\n\n`;
}

/** The SSE frame telling a subscriber to refetch everything, resuming from `id`. */
export function resetFrame(id: number, reason: string): string {
  return `id: ${id}\nevent: reset\ndata: ${JSON.stringify({ id, reason })}\n\n`;
}

/** The shared reader of one workspace: its position and subscribers, and one task at a time. */
class WorkspaceReader {
  readonly subscribers = new Set<Subscriber>();
  /** Subscribers joined or joining: the reader is forgotten when none is left. */
  members = 0;
  /** The last event id read (and handed out); -1 until it could be read. */
  position = -1;
  #chain: Promise<void>;
  #readQueued = false;

  constructor(
    readonly workspaceId: string,
    private readonly hub: LiveHub,
  ) {
    this.#chain = this.#task(() => this.#locate());
  }

  /** Reads the workspace's newest event id as the position, unless known. */
  async #locate(): Promise<void> {
    if (this.position < 0) this.position = await lastEventId(this.hub.deps.db, this.workspaceId);
  }

  /** Runs `fn` after every task queued before it. */
  #task(fn: () => Promise<void>): Promise<void> {
    this.#chain = (this.#chain ?? Promise.resolve()).then(fn).catch((err: unknown) => {
      this.hub.deps.log.warn({ err: err instanceof Error ? err.message : String(err), workspace: this.workspaceId }, 'live updates: read failed');
    });
    return this.#chain;
  }

  /** Reads what was committed since the last read (once, however often it is woken before it runs). */
  wake(): void {
    if (this.#readQueued) return;
    this.#readQueued = true;
    void this.#task(async () => {
      this.#readQueued = false;
      if (this.position < 0) {
        // The position could not be read (the database was unreachable): what changed meanwhile
        // is unknown, so every subscriber starts over from the newest event.
        await this.#locate();
        for (const s of this.subscribers) this.hub.send(s, resetFrame(this.position, 'events could not be read for a while'));
        return;
      }
      for (;;) {
        const events = await listEventsAfter(this.hub.deps.db, this.workspaceId, this.position, READ_BATCH);
        if (events.length === 0) return;
        this.position = events[events.length - 1].id;
        // One write per subscriber and read, its frames joined once per audience: a release of
        // 1,000 items costs each stream two writes, not 1,000.
        const frames = new Map<string, string>();
        for (const s of this.subscribers) {
          let text = frames.get(s.audience);
          if (text === undefined) {
            text = events
              .filter((e) => visibleTo(s.actor, e))
              .map(eventFrame)
              .join('');
            frames.set(s.audience, text);
          }
          if (text !== '') this.hub.send(s, text);
        }
        if (events.length < READ_BATCH) return;
      }
    });
  }

  /** Adds `sub` after replaying what follows `lastEventId` (or a reset), between two reads. */
  join(sub: Subscriber, lastEventId: string | undefined): Promise<void> {
    return this.#task(async () => {
      try {
        await this.#locate();
        if (lastEventId !== undefined) await this.#replay(sub, lastEventId.trim());
      } catch (err) {
        // Ended, so the client reconnects and resumes, rather than waiting for events never sent.
        this.hub.end(sub);
        throw err;
      }
      if (this.hub.isOpen(sub)) this.subscribers.add(sub);
    });
  }

  async #replay(sub: Subscriber, text: string): Promise<void> {
    const { db, clock, config } = this.hub.deps;
    const from = /^\d{1,15}$/.test(text) ? Number(text) : null;
    if (from === null) return this.hub.send(sub, resetFrame(this.position, 'Last-Event-ID is not an event id'));
    if (from > this.position) return this.hub.send(sub, resetFrame(this.position, 'Last-Event-ID is unknown here'));
    if (from === this.position) return;
    const first = await firstEventTimeAfter(db, this.workspaceId, from);
    if (first !== null && Date.parse(first) < clock().getTime() - config.liveHistorySeconds * 1000)
      return this.hub.send(sub, resetFrame(this.position, `Last-Event-ID is older than the ${config.liveHistorySeconds} s of history kept`));
    const replay: EventRecord[] = [];
    let after = from;
    while (after < this.position) {
      const events = (await listEventsAfter(db, this.workspaceId, after, READ_BATCH)).filter((e) => e.id <= this.position);
      if (events.length === 0) break;
      replay.push(...events.filter((e) => visibleTo(sub.actor, e)));
      if (replay.length > MAX_REPLAY) return this.hub.send(sub, resetFrame(this.position, `more than ${MAX_REPLAY} events since Last-Event-ID`));
      after = events[events.length - 1].id;
    }
    for (const event of replay) this.hub.send(sub, eventFrame(event));
  }
}

/**
 * The live subscribers of one app and their workspaces' readers (ctx.live). Resources (the
 * wake-ups' listener, the timers) are started by the first subscriber and released by close().
 */
export class LiveHub {
  readonly #readers = new Map<string, WorkspaceReader>();
  readonly #perKey = new Map<string, number>();
  readonly #open = new Set<Subscriber>();
  #unlisten: (() => void) | null = null;
  #heartbeat: NodeJS.Timeout | undefined;
  #poll: NodeJS.Timeout | undefined;
  #started = false;
  #closed = false;

  constructor(readonly deps: LiveDeps) {}

  /** Subscribers open on this instance. */
  get size(): number {
    return this.#open.size;
  }

  /**
   * Checks that `actor` may open one more stream here: 429 RATE_LIMITED past
   * LIVE_MAX_CONNECTIONS_PER_KEY, 503 once closing. Call before answering, then start().
   */
  admit(actor: Actor): void {
    if (this.#closed) throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down; retry shortly');
    const max = this.deps.config.liveMaxConnectionsPerKey;
    if ((this.#perKey.get(actor.keyId) ?? 0) >= max)
      throw new AppError('RATE_LIMITED', `This key already has ${max} live connections open on this server; close one first`);
  }

  /**
   * Starts a stream for `actor` into `sink`, resuming after `lastEventId` when given; returns the
   * function that ends it (call it when the client goes away). Frames written before the
   * returned promise settles are the replay (or a reset).
   */
  async start(actor: Actor, sink: LiveSink, lastEventId: string | undefined): Promise<() => void> {
    this.admit(actor);
    this.#startShared();
    const sub: Subscriber = { actor, sink, audience: audienceOf(actor) };
    this.#open.add(sub);
    this.#perKey.set(actor.keyId, (this.#perKey.get(actor.keyId) ?? 0) + 1);
    let reader = this.#readers.get(actor.workspaceId);
    if (!reader) {
      reader = new WorkspaceReader(actor.workspaceId, this);
      this.#readers.set(actor.workspaceId, reader);
    }
    reader.members += 1;
    await reader.join(sub, lastEventId);
    return () => this.#leave(sub, false);
  }

  /** Whether `sub` is still open. */
  isOpen(sub: Subscriber): boolean {
    return this.#open.has(sub);
  }

  /** Ends `sub`'s stream. */
  end(sub: Subscriber): void {
    this.#leave(sub, true);
  }

  /** Writes `frame` to `sub`, closing it when its backlog passes MAX_BACKLOG_BYTES. */
  send(sub: Subscriber, frame: string): void {
    if (!this.#open.has(sub)) return;
    if (sub.sink.write(frame) > MAX_BACKLOG_BYTES) this.#leave(sub, true);
  }

  /** Ends every stream and releases the wake-ups and timers (the app closes). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const sub of [...this.#open]) this.#leave(sub, true);
    clearInterval(this.#heartbeat);
    clearInterval(this.#poll);
    this.#unlisten?.();
    this.#unlisten = null;
  }

  #leave(sub: Subscriber, end: boolean): void {
    if (!this.#open.delete(sub)) return;
    const { keyId, workspaceId } = sub.actor;
    const left = (this.#perKey.get(keyId) ?? 1) - 1;
    if (left > 0) this.#perKey.set(keyId, left);
    else this.#perKey.delete(keyId);
    const reader = this.#readers.get(workspaceId);
    if (reader) {
      reader.subscribers.delete(sub);
      reader.members -= 1;
      // A reader without subscribers is forgotten; the next one starts from the newest event.
      if (reader.members === 0) this.#readers.delete(workspaceId);
    }
    if (end) sub.sink.end();
  }

  #startShared(): void {
    if (this.#started) return;
    this.#started = true;
    const { config } = this.deps;
    const wake = (workspaceId: string | null) => {
      if (workspaceId === null) for (const r of this.#readers.values()) r.wake();
      else this.#readers.get(workspaceId)?.wake();
    };
    this.#unlisten = this.deps.wakeUps.listen(wake);
    this.#heartbeat = setInterval(() => {
      for (const sub of this.#open) this.send(sub, ': ping\n\n');
    }, config.liveHeartbeatMs);
    this.#heartbeat.unref();
    this.#poll = setInterval(() => wake(null), config.livePollMs);
    this.#poll.unref();
  }
}
